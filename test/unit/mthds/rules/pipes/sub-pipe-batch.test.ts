import { expect } from 'chai';
import { subPipeBatch } from '../../../../../shared/mthds/rules/pipes/sub-pipe-batch.js';
import { bundle, runEach, runRule } from '../harness.js';

const sequence = (step: string) =>
  bundle(
    'flow',
    `[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { items = "Text[]" }\noutput = "Text[]"\nsteps = [${step}]\n[pipe.a]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { item = "Text" }\noutput = "Text"\nfunction_name = "f"`,
  );

describe('S4-sub-pipe-batch', () => {
  describe('when batch_over comes without batch_as', () => {
    it('should report the missing half', () => {
      expect(runRule(subPipeBatch, sequence('{ pipe = "a", batch_over = "items" }'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'run', steps[0]: batch_over and batch_as go together: set both (the list to iterate over and the name of each item) or neither.",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'run',
          domain_code: 'flow',
          field_path: 'pipe.run.steps[0].batch_as',
          field_name: 'batch_as',
        },
      ]);
    });
  });

  describe('when batch_as equals batch_over', () => {
    it('should report it', () => {
      expect(
        runRule(subPipeBatch, sequence('{ pipe = "a", batch_over = "items", batch_as = "items" }')).map(
          (item) => item.message,
        ),
      ).to.deep.equal(["Pipe 'run', steps[0]: batch_as must differ from batch_over."]);
    });
  });

  describe('when both are set and differ, or neither', () => {
    it('should pass', () => {
      expect(
        runEach(subPipeBatch, [
          sequence('{ pipe = "a", batch_over = "items", batch_as = "item" }'),
          sequence('{ pipe = "a" }'),
        ]),
      ).to.deep.equal([]);
    });
  });
});
