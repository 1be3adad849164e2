/**
 * S4 PipeJudge: a question's kind fields agree: not both `options` (choice) and `levels` (rating), and `criteria` /
 * `threshold` only on a yes/no question.
 * @see LANGUAGE-DELTA.md §3
 */
import { judgeQuestions } from '../../library/judge-questions.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** How messages name a question: the pipe (single form) or `question '<name>'` (multi form). */
function questionWhere(fieldPrefix: string, name: string): string {
  return fieldPrefix === '' ? 'the pipe' : `question '${name}'`;
}

/** S4 PipeJudge kind fields (`invalid_pipe_field`). */
export const judgeKindFields: Rule = {
  id: 'S4-judge-kind-fields',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'LANGUAGE-DELTA.md §3',
  check: (context) =>
    pipesOfType(context, 'PipeJudge').flatMap((pipe) =>
      judgeQuestions(pipe.blueprint).flatMap((question) => {
        const where = questionWhere(question.fieldPrefix, question.name);
        const field = (name: string) => pipeField(pipe, `${question.fieldPrefix}${name}`);
        if (question.options !== undefined && question.levels !== undefined)
          return [
            pipeItem(
              judgeKindFields,
              pipe,
              MESSAGES.judge_options_and_levels({ pipe: pipe.code, where }),
              field('levels'),
            ),
          ];
        if (question.kind === 'yes_no') return [];
        const kind = question.kind === 'choice' ? 'choice' : 'rating';
        return (['criteria', 'threshold'] as const)
          .filter((name) => question[name] !== undefined)
          .map((name) =>
            pipeItem(
              judgeKindFields,
              pipe,
              MESSAGES.judge_yes_no_field({ pipe: pipe.code, where, field: name, kind }),
              field(name),
            ),
          );
      }),
    ),
};
