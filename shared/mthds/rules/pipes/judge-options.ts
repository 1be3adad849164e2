/**
 * S4 PipeJudge: the `options` of a choice question offer at least two keys, none empty (a description may be `""`:
 * an undescribed option).
 * @see docs/language.md#pipejudge
 */
import { MESSAGES } from '../../messages.js';
import { judgeQuestionRule } from './judge-field-rule.js';

function problem(options: Record<string, string>): string | undefined {
  const keys = Object.keys(options);
  if (keys.length < 2) return `a choice offers at least 2 options, not ${keys.length}`;
  if (keys.some((key) => key.trim() === '')) return 'an option key must not be empty';
  return undefined;
}

/** S4 PipeJudge choice options (`invalid_pipe_field`). */
export const judgeOptions = judgeQuestionRule('S4-judge-options', (question, place) => {
  const why = question.options === undefined ? undefined : problem(question.options);
  if (why === undefined) return [];
  const field = place.field('options');
  return [{ field, message: MESSAGES.judge_options({ pipe: place.pipe, field, problem: why }) }];
});
