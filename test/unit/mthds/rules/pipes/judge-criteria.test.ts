import { expect } from 'chai';
import { judgeCriteria } from '../../../../../shared/mthds/rules/pipes/judge-criteria.js';
import { runRule } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

describe('S4-judge-criteria', () => {
  describe('when a criterion is blank', () => {
    it('should report it', () => {
      const text = judgeBundle(
        'prompt = "@message"\nquestion = "Urgent?"\ncriteria = { yes = "Blocked now", no = " " }',
      );
      expect(runRule(judgeCriteria, text)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'judge_message': criteria.no must not be empty (criteria describe what a yes and a no mean).",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.criteria.no',
          field_name: 'no',
        },
      ]);
    });
  });

  describe('when both criteria are described', () => {
    it('should pass', () => {
      const text = judgeBundle(
        'prompt = "@message"\nquestion = "Urgent?"\ncriteria = { yes = "Blocked now", no = "Can wait" }',
      );
      expect(runRule(judgeCriteria, text)).to.deep.equal([]);
    });
  });
});
