import { expect } from 'chai';
import { judgeQuestionForm } from '../../../../../shared/mthds/rules/pipes/judge-question-form.js';
import { runRule } from '../harness.js';
import { judgeBundle, TRIAGE_QUESTIONS } from './judge-bundles.js';

describe('S4-judge-question-form', () => {
  describe('when neither question nor questions is set', () => {
    it('should report it on question', () => {
      expect(runRule(judgeQuestionForm, judgeBundle('prompt = "@message"'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'judge_message': a PipeJudge sets exactly one of question (one question) and questions (named questions) (neither is set).",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.question',
          field_name: 'question',
        },
      ]);
    });
  });

  describe('when both are set', () => {
    it('should report it on questions', () => {
      const items = runRule(
        judgeQuestionForm,
        judgeBundle(`prompt = "@message"\nquestion = "Urgent?"\n${TRIAGE_QUESTIONS}`),
      );
      expect(items.map((item) => [item.field_path, item.message])).to.deep.equal([
        [
          'pipe.judge_message.questions',
          "Pipe 'judge_message': a PipeJudge sets exactly one of question (one question) and questions (named questions) (both are set).",
        ],
      ]);
    });
  });

  describe('when the multi form is empty, carries kind fields on the pipe, or holds a blank question', () => {
    it('should report each', () => {
      const empty = runRule(judgeQuestionForm, judgeBundle('prompt = "@message"\nquestions = {}'));
      expect(empty.map((item) => item.message)).to.deep.equal([
        "Pipe 'judge_message': the questions table of a PipeJudge needs at least one question ([pipe.judge_message.questions.<name>]).",
      ]);
      const stray = runRule(
        judgeQuestionForm,
        judgeBundle(`prompt = "@message"\nthreshold = 0.7\n${TRIAGE_QUESTIONS.replace('How severe is it?', ' ')}`),
      );
      expect(stray.map((item) => [item.field_path, item.message])).to.deep.equal([
        [
          'pipe.judge_message.threshold',
          "Pipe 'judge_message': with named questions, 'threshold' belongs in each question's table (questions.<name>.threshold), not on the pipe.",
        ],
        [
          'pipe.judge_message.questions.severity.question',
          "Pipe 'judge_message': questions.severity.question must not be empty.",
        ],
      ]);
    });
  });

  describe('when one form is used', () => {
    it('should pass', () => {
      expect(runRule(judgeQuestionForm, judgeBundle('prompt = "@message"\nquestion = "Urgent?"'))).to.deep.equal([]);
      expect(
        runRule(judgeQuestionForm, judgeBundle(`prompt = "@message"\n${TRIAGE_QUESTIONS}`, undefined, 'Triage')),
      ).to.deep.equal([]);
    });
  });
});
