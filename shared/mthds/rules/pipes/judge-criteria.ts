/**
 * S4 PipeJudge: the `criteria` of a yes/no question describe both answers (`yes` and `no` not empty; both are required
 * by the blueprint).
 * @see docs/language.md#pipejudge
 */
import { MESSAGES } from '../../messages.js';
import { judgeQuestionRule } from './judge-field-rule.js';

/** S4 PipeJudge yes/no criteria (`invalid_pipe_field`). */
export const judgeCriteria = judgeQuestionRule('S4-judge-criteria', (question, place) => {
  const { criteria } = question;
  if (criteria === undefined) return [];
  return (['yes', 'no'] as const)
    .filter((answer) => criteria[answer].trim() === '')
    .map((answer) => {
      const field = place.field(`criteria.${answer}`);
      return { field, message: MESSAGES.judge_criteria({ pipe: place.pipe, field }) };
    });
});
