/**
 * S4 PipeJudge: the `threshold` of a yes/no question is strictly between 0 and 1 (a probability of yes at or above it
 * is a yes).
 * @see docs/language.md#pipejudge
 */
import { MESSAGES } from '../../messages.js';
import { judgeQuestionRule } from './judge-field-rule.js';

/** S4 PipeJudge threshold range (`invalid_pipe_field`). */
export const judgeThreshold = judgeQuestionRule('S4-judge-threshold', (question, place) => {
  const { threshold } = question;
  if (threshold === undefined || (threshold > 0 && threshold < 1)) return [];
  const field = place.field('threshold');
  return [{ field, message: MESSAGES.judge_threshold({ pipe: place.pipe, field, value: threshold }) }];
});
