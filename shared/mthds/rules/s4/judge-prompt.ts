/**
 * S4 PipeJudge: the `prompt` (the evidence) is not empty.
 * @see LANGUAGE-DELTA.md §3
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeJudge non-empty prompt (`invalid_pipe_field`). */
export const judgePrompt: Rule = {
  id: 'S4-judge-prompt',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'LANGUAGE-DELTA.md §3',
  check: (context) =>
    pipesOfType(context, 'PipeJudge')
      .filter((pipe) => pipe.blueprint.prompt.trim() === '')
      .map((pipe) =>
        pipeItem(judgePrompt, pipe, MESSAGES.judge_prompt_empty({ pipe: pipe.code }), pipeField(pipe, 'prompt')),
      ),
};
