import { expect } from 'chai';
import { judgeOutputMulti } from '../../../../../shared/mthds/rules/pipes/judge-output-multi.js';
import { runRule } from '../harness.js';
import { judgeBundle, TRIAGE_QUESTIONS } from './judge-bundles.js';

const multi = (output: string, questions = TRIAGE_QUESTIONS) =>
  runRule(judgeOutputMulti, judgeBundle(`prompt = "@message"\n${questions}`, undefined, output));

describe('S4-judge-output-multi', () => {
  describe('when the output has no structure', () => {
    it('should report it', () => {
      expect(multi('YesNo')).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            'Pipe \'judge_message\': the output "YesNo" of a PipeJudge with named questions must be a structured concept with one concept field per question: it has no structure.',
          error_type: 'inadequate_output_concept',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.output',
          field_name: 'output',
        },
      ]);
    });
  });

  describe('when fields and questions differ, or a field is of another verdict, or the output is a list', () => {
    it('should report each', () => {
      const problem = (output: string, questions?: string) =>
        multi(output, questions).map((item) => item.message.replace(/^.*per question: /, ''));
      expect(problem('Triage', TRIAGE_QUESTIONS.replace('questions.severity', 'questions.impact'))).to.deep.equal([
        "no field for question 'impact'.",
      ]);
      expect(
        problem('Triage', TRIAGE_QUESTIONS.replace(/\[pipe\.judge_message\.questions\.severity\][\s\S]*$/, '')),
      ).to.deep.equal(["field 'severity' answers no question."]);
      expect(
        problem(
          'Triage',
          TRIAGE_QUESTIONS.replace('options = { billing = "Invoices and payments", support = "" }', ''),
        ),
      ).to.deep.equal(['field \'team\' must be a concept field of "YesNo" (or a concept refining it).']);
      expect(problem('Triage[]')).to.deep.equal(['a list is refused.']);
    });
  });

  describe('when each question has its verdict field (refinements allowed)', () => {
    it('should pass', () => {
      expect(multi('Triage')).to.deep.equal([]);
    });
  });
});
