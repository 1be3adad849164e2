import { expect } from 'chai';
import { parallelOutputMode } from '../../../../../shared/mthds/rules/pipes/parallel-output-mode.js';
import { bundle, runEach, runRule } from '../harness.js';

const parallel = (mode: string, output = 'Text') =>
  bundle(
    'flow',
    `[concept.Fan]\ndescription = "d"\n[concept.Fan.structure]\nx = { type = "text", description = "x", required = true }\n[pipe.fan]\ntype = "PipeParallel"\ndescription = "d"\noutput = "${output}"\nbranches = [{ pipe = "a", result = "x" }]\n${mode}\n[pipe.a]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"`,
  );

describe('S4-parallel-output-mode', () => {
  describe('when neither add_each_output nor combined_output is set', () => {
    it('should report it', () => {
      expect(runRule(parallelOutputMode, parallel('add_each_output = false'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'fan': a PipeParallel needs add_each_output = true, a combined_output concept, or an output that holds the branch results (Composite, or a concept whose fields are the results).",
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

  describe('when the output holds the branch results (docs/pipes.md#pipeparallel), or in strict mode', () => {
    it('should pass', () => {
      expect(
        runEach(parallelOutputMode, [parallel('add_each_output = false', 'Composite'), parallel('', 'Fan')]),
      ).to.deep.equal([]);
      expect(runRule(parallelOutputMode, parallel('add_each_output = false'), 'strict')).to.deep.equal([]);
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
