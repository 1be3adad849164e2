/**
 * S4 PipeJudge: the `threshold` of a yes/no question is strictly between 0 and 1 (a probability of yes at or above it
 * is a yes).
 * @see LANGUAGE-DELTA.md §3
 */
import { judgeQuestions } from '../../library/judge-questions.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeJudge threshold range (`invalid_pipe_field`). */
export const judgeThreshold: Rule = {
  id: 'S4-judge-threshold',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'LANGUAGE-DELTA.md §3',
  check: (context) =>
    pipesOfType(context, 'PipeJudge').flatMap((pipe) =>
      judgeQuestions(pipe.blueprint).flatMap((question) => {
        const { threshold } = question;
        if (threshold === undefined || (threshold > 0 && threshold < 1)) return [];
        const field = `${question.fieldPrefix}threshold`;
        const message = MESSAGES.judge_threshold({ pipe: pipe.code, field, value: threshold });
        return [pipeItem(judgeThreshold, pipe, message, pipeField(pipe, field))];
      }),
    ),
};
