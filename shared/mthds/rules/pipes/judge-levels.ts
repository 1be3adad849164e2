/**
 * S4 PipeJudge: the `levels` of a rating question (low to high) are at least two; a string level is a non-empty
 * description; a table level has a label or a description, none empty; either every level has a label or none has,
 * and labels are distinct.
 * @see docs/language.md#pipejudge
 */
import { levelParts } from '../../library/judge-questions.js';
import { MESSAGES } from '../../messages.js';
import type { JudgeLevelBlueprint } from '../../parse/judge-blueprint.js';
import { judgeQuestionRule } from './judge-field-rule.js';

function problem(levels: readonly JudgeLevelBlueprint[]): string | undefined {
  if (levels.length < 2) return `a rating scale has at least 2 levels, not ${levels.length}`;
  const parts = levels.map(levelParts);
  const index = parts.findIndex(
    (part) =>
      (part.label === undefined && part.description === undefined) ||
      part.label?.trim() === '' ||
      part.description?.trim() === '',
  );
  if (index >= 0) return `level ${index} needs a non-empty label or description`;
  const labels = parts.flatMap((part) => (part.label === undefined ? [] : [part.label]));
  if (labels.length > 0 && labels.length < levels.length) return 'either every level has a label or none has';
  const repeated = labels.find((label, at) => labels.indexOf(label) !== at);
  if (repeated !== undefined) return `the label '${repeated}' is used twice`;
  return undefined;
}

/** S4 PipeJudge rating levels (`invalid_pipe_field`). */
export const judgeLevels = judgeQuestionRule('S4-judge-levels', (question, place) => {
  const why = question.levels === undefined ? undefined : problem(question.levels);
  if (why === undefined) return [];
  const field = place.field('levels');
  return [{ field, message: MESSAGES.judge_levels({ pipe: place.pipe, field, problem: why }) }];
});
