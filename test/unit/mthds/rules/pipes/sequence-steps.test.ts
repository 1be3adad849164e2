import { expect } from 'chai';
import { sequenceSteps } from '../../../../../shared/mthds/rules/pipes/sequence-steps.js';
import { bundle, runRule } from '../harness.js';

const sequence = (steps: string) =>
  bundle(
    'flow',
    `[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\noutput = "Text"\nsteps = ${steps}\n[pipe.a]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"`,
  );

describe('S4-sequence-steps', () => {
  describe('when a sequence has no step', () => {
    it('should report it', () => {
      expect(runRule(sequenceSteps, sequence('[]'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'run': a PipeSequence needs at least one step in steps.",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'run',
          domain_code: 'flow',
          field_path: 'pipe.run.steps',
          field_name: 'steps',
        },
      ]);
    });
  });

  describe('when it has one', () => {
    it('should pass', () => {
      expect(runRule(sequenceSteps, sequence('[{ pipe = "a" }]'))).to.deep.equal([]);
    });
  });
});
