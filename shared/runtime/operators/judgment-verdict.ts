/**
 * Reading the answers of a judgment call into verdicts (docs/language.md#pipejudge): each question's answer must be of
 * its
 * kind — a boolean `yes_no`, an offered `choice` key, a `level` on the scale — or a refusal. A verdict is the content
 * of its native: `YesNo {yes_no}`, `Choice {choice}`, `Rating {level, label?}` (the label copied from the declared
 * scale); nothing absent is synthesised (no probability, confidence or position from an LLM emulation).
 */
import { JudgmentAnswerMismatchError } from '../../errors/index.js';
import { type JudgeQuestion, levelParts } from '../../mthds/index.js';
import type { ItemContent } from '../stuff.js';

/** One question's outcome: a verdict, or the model's refusal. */
export type JudgeOutcome = { verdict: ItemContent } | { refusal: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The verdict of one question.
 * @param question - the question as declared
 * @param answer - the kind's answer as the model gave it (`{yes_no}`, `{choice}` or `{level}`)
 * @returns the verdict, or a sentence saying what is wrong with the answer
 */
function verdictOf(question: JudgeQuestion, answer: Record<string, unknown>): ItemContent | string {
  if (question.kind === 'yes_no') {
    const value = answer['yes_no'];
    return typeof value === 'boolean' ? { yes_no: value } : 'a yes/no answer needs a boolean "yes_no"';
  }
  if (question.kind === 'choice') {
    const value = answer['choice'];
    const offered = Object.keys(question.options ?? {});
    if (typeof value === 'string' && offered.includes(value)) return { choice: value };
    return `a choice answer is one of ${offered.map((key) => `"${key}"`).join(', ')}, not ${JSON.stringify(value)}`;
  }
  const value = answer['level'];
  const levels = question.levels ?? [];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= levels.length)
    return `a rating answer is a level from 0 to ${levels.length - 1}, not ${JSON.stringify(value)}`;
  const { label } = levelParts(levels[value]!);
  return label === undefined ? { level: value } : { level: value, label };
}

/**
 * Read the answers of a judgment call.
 * @param pipeCode - the judging pipe, for messages
 * @param questions - the questions asked, in table order
 * @param answers - the model's answer object, keyed by question name
 * @returns each question's outcome, by name
 * @throws JudgmentAnswerMismatchError when a question is unanswered or answered out of its kind, or an unasked
 *   question is answered
 */
export function readJudgment(
  pipeCode: string,
  questions: readonly JudgeQuestion[],
  answers: unknown,
): Map<string, JudgeOutcome> {
  const mismatch = (problem: string) =>
    new JudgmentAnswerMismatchError(`PipeJudge '${pipeCode}': the judgment model's answer does not fit: ${problem}.`);
  if (!isRecord(answers)) throw mismatch('the answer is not an object keyed by question name');
  const asked = questions.map((question) => question.name);
  const extra = Object.keys(answers).filter((name) => !asked.includes(name));
  if (extra.length > 0) throw mismatch(`it answers questions not asked (${extra.join(', ')})`);
  const outcomes = new Map<string, JudgeOutcome>();
  for (const question of questions) {
    const answer = answers[question.name];
    if (!isRecord(answer)) throw mismatch(`question '${question.name}' is not answered`);
    if (typeof answer['refusal'] === 'string') {
      outcomes.set(question.name, { refusal: answer['refusal'] });
      continue;
    }
    const verdict = verdictOf(question, answer);
    if (typeof verdict === 'string') throw mismatch(`question '${question.name}': ${verdict}`);
    outcomes.set(question.name, { verdict });
  }
  return outcomes;
}

/**
 * The verdict of a dry run (docs/language.md#pipejudge, the reference's deterministic mock): yes; the first declared
 * option;
 * level 0 (with its label); nothing uncertain; never a refusal.
 * @param question - the question as declared
 */
export function dryRunVerdict(question: JudgeQuestion): ItemContent {
  if (question.kind === 'yes_no') return { yes_no: true };
  if (question.kind === 'choice') return { choice: Object.keys(question.options ?? {})[0] ?? '' };
  const first = question.levels?.[0];
  const label = first === undefined ? undefined : levelParts(first).label;
  return label === undefined ? { level: 0 } : { level: 0, label };
}
