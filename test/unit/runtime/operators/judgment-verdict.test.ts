import { expect } from 'chai';
import { JudgmentAnswerMismatchError } from '../../../../shared/errors/index.js';
import type { JudgeQuestion } from '../../../../shared/mthds/index.js';
import { dryRunVerdict, readJudgment } from '../../../../shared/runtime/operators/judgment-verdict.js';

const URGENT: JudgeQuestion = { name: 'urgent', fieldPrefix: 'questions.urgent.', question: 'Urgent?', kind: 'yes_no' };
const TEAM: JudgeQuestion = {
  name: 'team',
  fieldPrefix: 'questions.team.',
  question: 'Which team?',
  kind: 'choice',
  options: { billing: '', support: 'Bugs' },
};
const SEVERITY: JudgeQuestion = {
  name: 'severity',
  fieldPrefix: 'questions.severity.',
  question: 'How bad?',
  kind: 'rating',
  levels: [
    { label: 'Minor', description: undefined },
    { label: 'Major', description: 'Blocks work' },
  ],
};
const UNLABELLED: JudgeQuestion = { ...SEVERITY, levels: ['Cosmetic', 'Blocks work'] };
const QUESTIONS = [URGENT, TEAM, SEVERITY];

const mismatch = (answers: unknown, questions: JudgeQuestion[] = QUESTIONS) => {
  try {
    readJudgment('triage', questions, answers);
  } catch (error) {
    expect(error).to.be.instanceOf(JudgmentAnswerMismatchError);
    return (error as Error).message;
  }
  throw new Error('no mismatch');
};

describe('judgment verdicts', () => {
  describe('when every answer is of its question kind', () => {
    it('should give the verdict natives, the rating label copied from the scale, and keep refusals', () => {
      const outcomes = readJudgment('triage', [...QUESTIONS, { ...UNLABELLED, name: 'impact' }], {
        urgent: { yes_no: false },
        team: { choice: 'support' },
        severity: { level: 1 },
        impact: { refusal: 'Not said' },
      });
      expect(Object.fromEntries(outcomes)).to.deep.equal({
        urgent: { verdict: { yes_no: false } },
        team: { verdict: { choice: 'support' } },
        severity: { verdict: { level: 1, label: 'Major' } },
        impact: { refusal: 'Not said' },
      });
    });
  });

  describe('when an answer does not fit', () => {
    it('should throw JudgmentAnswerMismatchError saying what', () => {
      const answers = { urgent: { yes_no: true }, team: { choice: 'billing' }, severity: { level: 0 } };
      expect(mismatch([])).to.equal(
        "PipeJudge 'triage': the judgment model's answer does not fit: the answer is not an object keyed by question name.",
      );
      expect(mismatch({ ...answers, extra: { yes_no: true } })).to.include('it answers questions not asked (extra)');
      expect(mismatch({ ...answers, urgent: undefined })).to.include("question 'urgent' is not answered");
      expect(mismatch({ ...answers, urgent: { yes_no: 'yes' } })).to.include(
        'question \'urgent\': a yes/no answer needs a boolean "yes_no"',
      );
      expect(mismatch({ ...answers, team: { choice: 'legal' } })).to.include(
        'question \'team\': a choice answer is one of "billing", "support", not "legal"',
      );
      expect(mismatch({ ...answers, severity: { level: 2 } })).to.include(
        "question 'severity': a rating answer is a level from 0 to 1, not 2",
      );
      expect(mismatch({ ...answers, severity: { choice: 'billing' } })).to.include('not undefined');
    });
  });

  describe('in a dry run', () => {
    it('should answer yes, the first option and level 0 with its label, nothing uncertain', () => {
      expect(dryRunVerdict(URGENT)).to.deep.equal({ yes_no: true });
      expect(dryRunVerdict(TEAM)).to.deep.equal({ choice: 'billing' });
      expect(dryRunVerdict(SEVERITY)).to.deep.equal({ level: 0, label: 'Minor' });
      expect(dryRunVerdict(UNLABELLED)).to.deep.equal({ level: 0 });
    });
  });
});
