import { expect } from 'chai';
import { subPipeOutputOverride } from '../../../../../shared/mthds/rules/pipes/sub-pipe-output-override.js';
import { bundle, runEach, runRule } from '../harness.js';

const FUNC = '[pipe.a]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"';
const controllers = (step: string) =>
  bundle(
    'flow',
    `[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\noutput = "Text"\nsteps = [${step}]\n[pipe.fan]\ntype = "PipeParallel"\ndescription = "d"\noutput = "Text"\nadd_each_output = true\nbranches = [${step}]\n${FUNC}`,
  );

describe('S4-sub-pipe-output-override', () => {
  describe('when a step or branch sets nb_output and multiple_output', () => {
    it('should report each', () => {
      const items = runRule(
        subPipeOutputOverride,
        controllers('{ pipe = "a", result = "r", nb_output = 3, multiple_output = true }'),
      );
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message: "Pipe 'run', steps[0]: set nb_output or multiple_output, not both.",
        error_type: 'invalid_pipe_field',
        source: 'bundle-1.mthds',
        pipe_code: 'run',
        domain_code: 'flow',
        field_path: 'pipe.run.steps[0].nb_output',
        field_name: 'nb_output',
      });
      expect(items.map((item) => item.field_path)).to.deep.equal([
        'pipe.run.steps[0].nb_output',
        'pipe.fan.branches[0].nb_output',
      ]);
    });
  });

  describe('when one of them is set', () => {
    it('should pass', () => {
      expect(
        runEach(subPipeOutputOverride, [
          controllers('{ pipe = "a", result = "r", nb_output = 3 }'),
          controllers('{ pipe = "a", result = "r", multiple_output = true }'),
        ]),
      ).to.deep.equal([]);
    });
  });
});
