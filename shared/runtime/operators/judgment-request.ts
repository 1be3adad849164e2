/**
 * The one judgment request of a PipeJudge (docs/language.md#pipejudge), emulated with an LLM structured-output call:
 * the
 * evidence (the rendered prompt) and the rendered questions keyed by name (`question` in the single form), each as a
 * neutral question kind — yes/no `{instructions, criteria?}`, choice `{instructions, options}`, rating
 * `{instructions, levels}` — and the JSON schema of the answer: per question, the kind's answer (`{yes_no}`,
 * `{choice}` among the offered keys, `{level}` on the scale) or a refusal `{refusal}`. Probabilities and confidences
 * are not asked for: an LLM's are not calibrated, so the verdict natives leave them absent.
 */
import { type JudgeKind, type JudgeQuestion, levelParts } from '../../mthds/index.js';

/** A question as the judgment model reads it. */
export type NeutralQuestion =
  | { kind: 'yes_no'; instructions: string; criteria?: { yes: string; no: string } }
  | { kind: 'choice'; instructions: string; options: { key: string; description?: string }[] }
  | { kind: 'rating'; instructions: string; levels: { index: number; label?: string; description?: string }[] };

/** A question ready to ask: its name, its declared fields, and its rendered text. */
export interface AskedQuestion {
  question: JudgeQuestion;
  /** The question template, rendered. */
  instructions: string;
}

/** The system prompt of every judgment call. */
export const JUDGMENT_SYSTEM_PROMPT =
  'You are a careful judge. You answer closed questions about the evidence you are given, using only that evidence. ' +
  'For each question give exactly one of the allowed answers; when the evidence does not allow an answer, refuse that ' +
  'question and say why.';

/**
 * A question as the judgment model reads it.
 * @param asked - the question and its rendered text
 */
function neutralQuestion(asked: AskedQuestion): NeutralQuestion {
  const { question, instructions } = asked;
  if (question.kind === 'choice')
    return {
      kind: 'choice',
      instructions,
      options: Object.entries(question.options ?? {}).map(([key, description]) =>
        description === '' ? { key } : { key, description },
      ),
    };
  if (question.kind === 'rating')
    return {
      kind: 'rating',
      instructions,
      levels: (question.levels ?? []).map((level, index) => ({ index, ...levelParts(level) })),
    };
  return question.criteria === undefined
    ? { kind: 'yes_no', instructions }
    : { kind: 'yes_no', instructions, criteria: question.criteria };
}

/**
 * The user prompt: the evidence, then the questions keyed by name as JSON, then how to answer.
 * @param evidence - the rendered `prompt`
 * @param questions - the questions to ask, in table order
 */
export function judgmentUserPrompt(evidence: string, questions: readonly AskedQuestion[]): string {
  const keyed = Object.fromEntries(questions.map((asked) => [asked.question.name, neutralQuestion(asked)]));
  return [
    `<evidence>\n${evidence}\n</evidence>`,
    `Answer each of these questions about the evidence (keyed by name, as JSON):\n${JSON.stringify(keyed, null, 2)}`,
    'Answer with one JSON object keyed by the same names: {"yes_no": true or false} for a yes_no question, ' +
      '{"choice": "<option key>"} for a choice question, {"level": <level index>} for a rating question, or ' +
      '{"refusal": "<why>"} when the evidence does not allow an answer.',
  ].join('\n\n');
}

const REFUSAL = {
  type: 'object',
  properties: { refusal: { type: 'string', description: 'Why the evidence does not allow an answer' } },
  required: ['refusal'],
  additionalProperties: false,
};

function answerSchema(question: JudgeQuestion): Record<string, unknown> {
  const member = (name: string, schema: Record<string, unknown>) => ({
    type: 'object',
    properties: { [name]: schema },
    required: [name],
    additionalProperties: false,
  });
  const kinds: Record<JudgeKind, () => Record<string, unknown>> = {
    yes_no: () => member('yes_no', { type: 'boolean' }),
    choice: () => member('choice', { type: 'string', enum: Object.keys(question.options ?? {}) }),
    rating: () => member('level', { type: 'integer', enum: (question.levels ?? []).map((_level, index) => index) }),
  };
  return { anyOf: [kinds[question.kind](), REFUSAL] };
}

/**
 * The JSON schema of the answer: an object with one member per question name, each the kind's answer or a refusal.
 * @param questions - the questions asked
 */
export function judgmentAnswerSchema(questions: readonly JudgeQuestion[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(questions.map((question) => [question.name, answerSchema(question)])),
    required: questions.map((question) => question.name),
    additionalProperties: false,
  };
}
