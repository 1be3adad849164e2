/**
 * The parts of a PipeJudge as written: its judgment model setting, the levels of a rating scale, the kind fields of a
 * question and the questions of its multi form (docs/language.md#pipejudge).
 */
import { z } from 'zod';
import { nullish } from './nullish-field.js';

/**
 * Inline judgment model settings: a judgment-deck reference and an optional description (docs/language.md#pipejudge).
 */
export const JUDGMENT_SETTING = z.strictObject({ model: z.string(), description: nullish(z.string()) });

/** A level of a PipeJudge rating scale: a description, or a table with a label and/or a description. */
const JUDGE_LEVEL = z.union([
  z.string(),
  z.strictObject({ label: nullish(z.string()), description: nullish(z.string()) }),
]);
/** A level of a rating scale as written. */
export type JudgeLevelBlueprint = z.infer<typeof JUDGE_LEVEL>;

/**
 * The kind fields of a PipeJudge question: `options` (choice), `levels` (rating), else yes/no with
 * `criteria`/`threshold`.
 */
export const JUDGE_KIND_FIELDS = {
  options: nullish(z.record(z.string(), z.string())),
  levels: nullish(z.array(JUDGE_LEVEL)),
  criteria: nullish(z.strictObject({ yes: z.string(), no: z.string() })),
  threshold: nullish(z.number()),
};

/** One question of a PipeJudge's multi form (`[pipe.x.questions.<name>]`, docs/language.md#pipejudge). */
export const JUDGE_QUESTION = z.strictObject({ question: z.string(), ...JUDGE_KIND_FIELDS });
