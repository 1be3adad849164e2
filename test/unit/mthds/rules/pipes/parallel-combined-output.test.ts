import { expect } from 'chai';
import { parallelCombinedOutput } from '../../../../../shared/mthds/rules/pipes/parallel-combined-output.js';
import { bundle, runRule } from '../harness.js';

const TEXT = bundle(
  'flow',
  '[pipe.fan]\ntype = "PipeParallel"\ndescription = "d"\noutput = "Anything"\nbranches = [{ pipe = "a", result = "x" }]\ncombined_output = "Composite"\n[pipe.a]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"',
);

describe('S4-parallel-combined-output', () => {
  describe('when a PipeParallel writes combined_output, in strict mode', () => {
    it('should refuse it as an extra field, naming the output to declare', () => {
      expect(runRule(parallelCombinedOutput, TEXT, 'strict')).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            'Pipe \'fan\': combined_output was removed; a PipeParallel combines its branches into its output. Delete combined_output and declare output = "Composite" (a Composite, or a concept whose fields are the branch results).',
          error_type: 'extra_forbidden',
          source: 'bundle-1.mthds',
          pipe_code: 'fan',
          domain_code: 'flow',
          field_path: 'pipe.fan.combined_output',
          field_name: 'combined_output',
        },
      ]);
    });
  });

  describe('when the same bundle loads in compat mode (docs/pipes.md#pipeparallel)', () => {
    it('should pass', () => {
      expect(runRule(parallelCombinedOutput, TEXT, 'compat')).to.deep.equal([]);
    });
  });
});
