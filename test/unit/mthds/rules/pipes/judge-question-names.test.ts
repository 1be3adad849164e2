import { expect } from 'chai';
import { judgeQuestionNames } from '../../../../../shared/mthds/rules/pipes/judge-question-names.js';
import { runRule } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

const named = (name: string) =>
  judgeBundle(`prompt = "@message"\n[pipe.judge_message.questions.${name}]\nquestion = "Urgent?"`, undefined, 'Triage');

describe('S4-judge-question-names', () => {
  describe('when a question name is a Python keyword', () => {
    it('should report it', () => {
      expect(runRule(judgeQuestionNames, named('class'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'judge_message': question name 'class' is not a valid field name ('class' is a Python keyword); the names are the fields of the output concept.",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.questions.class',
          field_name: 'class',
        },
      ]);
    });
  });

  describe('when a name is not an identifier, starts with _ or is reserved', () => {
    it('should report each with its reason', () => {
      for (const [name, reason] of [
        ['"two words"', 'a name is a letter, then letters, digits or underscores'],
        ['_hidden', "field names must not start with '_'"],
        ['model_name', "names starting with 'model_' are reserved"],
        ['json', "'json' is a reserved name"],
      ] as const)
        expect(runRule(judgeQuestionNames, named(name)).map((item) => item.message)).to.deep.equal([
          `Pipe 'judge_message': question name '${name.replace(/"/g, '')}' is not a valid field name (${reason}); the names are the fields of the output concept.`,
        ]);
    });
  });

  describe('when names are plain snake_case', () => {
    it('should pass', () => {
      expect(runRule(judgeQuestionNames, named('needs_answer_today'))).to.deep.equal([]);
    });
  });
});
