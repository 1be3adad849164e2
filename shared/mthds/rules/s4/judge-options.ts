/**
 * S4 PipeJudge: the `options` of a choice question offer at least two keys, none empty (a description may be `""`:
 * an undescribed option).
 * @see LANGUAGE-DELTA.md §3
 */
import { judgeQuestions } from '../../library/judge-questions.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

function problem(options: Record<string, string>): string | undefined {
  const keys = Object.keys(options);
  if (keys.length < 2) return `a choice offers at least 2 options, not ${keys.length}`;
  if (keys.some((key) => key.trim() === '')) return 'an option key must not be empty';
  return undefined;
}

/** S4 PipeJudge choice options (`invalid_pipe_field`). */
export const judgeOptions: Rule = {
  id: 'S4-judge-options',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'LANGUAGE-DELTA.md §3',
  check: (context) =>
    pipesOfType(context, 'PipeJudge').flatMap((pipe) =>
      judgeQuestions(pipe.blueprint).flatMap((question) => {
        const why = question.options === undefined ? undefined : problem(question.options);
        if (why === undefined) return [];
        const field = `${question.fieldPrefix}options`;
        return [
          pipeItem(
            judgeOptions,
            pipe,
            MESSAGES.judge_options({ pipe: pipe.code, field, problem: why }),
            pipeField(pipe, field),
          ),
        ];
      }),
    ),
};
