import { expect } from 'chai';
import { judgeKindFields } from '../../../../../shared/mthds/rules/pipes/judge-kind-fields.js';
import { runRule } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

describe('S4-judge-kind-fields', () => {
  describe('when a question sets both options and levels', () => {
    it('should report it on levels', () => {
      const text = judgeBundle(
        'prompt = "@message"\nquestion = "Which?"\noptions = { a = "", b = "" }\nlevels = ["Low", "High"]',
        undefined,
        'Choice',
      );
      expect(runRule(judgeKindFields, text)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'judge_message': the pipe sets both options (a choice) and levels (a rating); keep one.",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.levels',
          field_name: 'levels',
        },
      ]);
    });
  });

  describe('when a choice or rating question carries criteria or a threshold', () => {
    it('should report each field', () => {
      const choice = judgeBundle(
        'prompt = "@message"\nquestion = "Which?"\noptions = { a = "", b = "" }\nthreshold = 0.5\ncriteria = { yes = "y", no = "n" }',
        undefined,
        'Choice',
      );
      expect(runRule(judgeKindFields, choice).map((item) => [item.field_path, item.message])).to.deep.equal([
        [
          'pipe.judge_message.criteria',
          "Pipe 'judge_message': the pipe is a choice question; 'criteria' applies to yes/no questions only.",
        ],
        [
          'pipe.judge_message.threshold',
          "Pipe 'judge_message': the pipe is a choice question; 'threshold' applies to yes/no questions only.",
        ],
      ]);
      const rating = judgeBundle(
        'prompt = "@message"\n[pipe.judge_message.questions.severity]\nquestion = "How bad?"\nlevels = ["Low", "High"]\nthreshold = 0.5',
        undefined,
        'Triage',
      );
      expect(runRule(judgeKindFields, rating).map((item) => [item.field_path, item.message])).to.deep.equal([
        [
          'pipe.judge_message.questions.severity.threshold',
          "Pipe 'judge_message': question 'severity' is a rating question; 'threshold' applies to yes/no questions only.",
        ],
      ]);
    });
  });

  describe('when a yes/no question has criteria and a threshold', () => {
    it('should pass', () => {
      const text = judgeBundle(
        'prompt = "@message"\nquestion = "Urgent?"\nthreshold = 0.7\ncriteria = { yes = "y", no = "n" }',
      );
      expect(runRule(judgeKindFields, text)).to.deep.equal([]);
    });
  });
});
