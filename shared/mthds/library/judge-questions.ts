/**
 * The questions of a PipeJudge and their kinds (docs/language.md#pipejudge): a pipe asks one `question` (single form)
 * or a
 * table of named `questions` (multi form). A question with `options` is a choice, with `levels` a rating, with neither
 * a yes/no; each kind's verdict is its native (`Choice`, `Rating`, `YesNo`).
 */
import type { JudgeLevelBlueprint } from '../parse/judge-blueprint.js';
import type { PipeJudgeBlueprint } from '../parse/pipe-blueprints.js';

/** The kind of a judge question. */
export type JudgeKind = 'yes_no' | 'choice' | 'rating';

/** The native concept each kind's verdict is. */
export const JUDGE_KIND_NATIVES: Readonly<Record<JudgeKind, string>> = {
  yes_no: 'native.YesNo',
  choice: 'native.Choice',
  rating: 'native.Rating',
};

/** One question of a PipeJudge, with the fields that define its kind. */
export interface JudgeQuestion {
  /** `question` in the single form, the table key in the multi form. */
  name: string;
  /** Where the question's fields sit in the pipe table: `` (single form) or `questions.<name>.` (multi form). */
  fieldPrefix: string;
  /** The question template. */
  question: string;
  kind: JudgeKind;
  options?: Record<string, string>;
  levels?: JudgeLevelBlueprint[];
  criteria?: { yes: string; no: string };
  threshold?: number;
}

type KindFields = Pick<PipeJudgeBlueprint, 'options' | 'levels' | 'criteria' | 'threshold'>;

/**
 * The kind the fields of a question give: `options` → choice (also when `levels` is set too, an error the rules
 * report), `levels` → rating, neither → yes/no.
 * @param fields - the kind fields of a question (or of the pipe, in the single form)
 */
export function judgeKindOf(fields: KindFields): JudgeKind {
  if (fields.options !== undefined) return 'choice';
  return fields.levels !== undefined ? 'rating' : 'yes_no';
}

function withKindFields(base: Omit<JudgeQuestion, 'kind'>, fields: KindFields): JudgeQuestion {
  const question: JudgeQuestion = { ...base, kind: judgeKindOf(fields) };
  if (fields.options !== undefined) question.options = fields.options;
  if (fields.levels !== undefined) question.levels = fields.levels;
  if (fields.criteria !== undefined) question.criteria = fields.criteria;
  if (fields.threshold !== undefined) question.threshold = fields.threshold;
  return question;
}

/**
 * Whether a PipeJudge is written in the multi form (`questions` set).
 * @param blueprint - the pipe as written
 */
export function isMultiJudge(blueprint: PipeJudgeBlueprint): boolean {
  return blueprint.questions !== undefined;
}

/**
 * The questions of a PipeJudge, in table order: the multi form's named questions when `questions` is set, else the
 * single `question` (named `question`, with the pipe's own kind fields); none when neither is written.
 * @param blueprint - the pipe as written
 */
export function judgeQuestions(blueprint: PipeJudgeBlueprint): JudgeQuestion[] {
  if (blueprint.questions !== undefined)
    return Object.entries(blueprint.questions).map(([name, entry]) =>
      withKindFields({ name, fieldPrefix: `questions.${name}.`, question: entry.question }, entry),
    );
  if (blueprint.question === undefined) return [];
  return [withKindFields({ name: 'question', fieldPrefix: '', question: blueprint.question }, blueprint)];
}

/**
 * The label and description of a level of a rating scale (a string level is a description).
 * @param level - the level as written
 */
export function levelParts(level: JudgeLevelBlueprint): { label?: string; description?: string } {
  if (typeof level === 'string') return { description: level };
  const parts: { label?: string; description?: string } = {};
  if (level.label !== undefined) parts.label = level.label;
  if (level.description !== undefined) parts.description = level.description;
  return parts;
}
