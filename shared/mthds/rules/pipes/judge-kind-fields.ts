/**
 * S4 PipeJudge: a question's kind fields agree: not both `options` (choice) and `levels` (rating), and `criteria` /
 * `threshold` only on a yes/no question.
 * @see docs/language.md#pipejudge
 */
import { MESSAGES } from '../../messages.js';
import { judgeQuestionRule } from './judge-field-rule.js';

/** How messages name a question: the pipe (single form) or `question '<name>'` (multi form). */
function questionWhere(fieldPrefix: string, name: string): string {
  return fieldPrefix === '' ? 'the pipe' : `question '${name}'`;
}

/** S4 PipeJudge kind fields (`invalid_pipe_field`). */
export const judgeKindFields = judgeQuestionRule('S4-judge-kind-fields', (question, place) => {
  const where = questionWhere(question.fieldPrefix, question.name);
  if (question.options !== undefined && question.levels !== undefined)
    return [{ field: place.field('levels'), message: MESSAGES.judge_options_and_levels({ pipe: place.pipe, where }) }];
  if (question.kind === 'yes_no') return [];
  const kind = question.kind === 'choice' ? 'choice' : 'rating';
  return (['criteria', 'threshold'] as const)
    .filter((name) => question[name] !== undefined)
    .map((name) => ({
      field: place.field(name),
      message: MESSAGES.judge_yes_no_field({ pipe: place.pipe, where, field: name, kind }),
    }));
});
