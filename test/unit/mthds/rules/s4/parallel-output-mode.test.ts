import { expect } from 'chai';
import { parallelOutputMode } from '../../../../../shared/mthds/rules/s4/parallel-output-mode.js';
import { bundle, runEach, runRule } from '../harness.js';

const parallel = (mode: string) =>
  bundle(
    'flow',
    `[pipe.fan]\ntype = "PipeParallel"\ndescription = "d"\noutput = "Text"\nbranches = [{ pipe = "a", result = "x" }]\n${mode}\n[pipe.a]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"`,
  );

describe('S4-parallel-output-mode', () => {
  describe('when neither add_each_output nor combined_output is set', () => {
    it('should report it', () => {
      expect(runRule(parallelOutputMode, parallel('add_each_output = false'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'fan': a PipeParallel needs add_each_output = true or a combined_output concept (or both).",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'fan',
          domain_code: 'flow',
          field_path: 'pipe.fan.add_each_output',
          field_name: 'add_each_output',
        },
      ]);
    });
  });

  describe('when one of them is set', () => {
    it('should pass', () => {
      expect(
        runEach(parallelOutputMode, [parallel('add_each_output = true'), parallel('combined_output = "Text"')]),
      ).to.deep.equal([]);
    });
  });
});
