import { expect } from 'chai';
import { conditionOutcomes } from '../../../../../shared/mthds/rules/pipes/condition-outcomes.js';
import { bundle, runRule } from '../harness.js';

const condition = (outcomes: string) =>
  bundle(
    'flow',
    `[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { v = "Text" }\noutput = "Text"\nexpression = "v.text"\noutcomes = ${outcomes}\ndefault_outcome = "fail"`,
  );

describe('S4-condition-outcomes', () => {
  describe('when outcomes is empty', () => {
    it('should report it', () => {
      expect(runRule(conditionOutcomes, condition('{}'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'route': outcomes needs at least one entry (outcome key = pipe code).",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'route',
          domain_code: 'flow',
          field_path: 'pipe.route.outcomes',
          field_name: 'outcomes',
        },
      ]);
    });
  });

  describe('when it has an entry', () => {
    it('should pass', () => {
      expect(runRule(conditionOutcomes, condition('{ yes = "continue" }'))).to.deep.equal([]);
    });
  });
});
