/**
 * S4 PipeJudge: the `criteria` of a yes/no question describe both answers (`yes` and `no` not empty; both are required
 * by the blueprint).
 * @see LANGUAGE-DELTA.md §3
 */
import { judgeQuestions } from '../../library/judge-questions.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeJudge yes/no criteria (`invalid_pipe_field`). */
export const judgeCriteria: Rule = {
  id: 'S4-judge-criteria',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'LANGUAGE-DELTA.md §3',
  check: (context) =>
    pipesOfType(context, 'PipeJudge').flatMap((pipe) =>
      judgeQuestions(pipe.blueprint).flatMap((question) => {
        const { criteria } = question;
        if (criteria === undefined) return [];
        return (['yes', 'no'] as const)
          .filter((answer) => criteria[answer].trim() === '')
          .map((answer) => {
            const field = `${question.fieldPrefix}criteria.${answer}`;
            return pipeItem(
              judgeCriteria,
              pipe,
              MESSAGES.judge_criteria({ pipe: pipe.code, field }),
              pipeField(pipe, field),
            );
          });
      }),
    ),
};
