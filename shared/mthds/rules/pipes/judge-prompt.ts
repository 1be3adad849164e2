/**
 * S4 PipeJudge: the `prompt` (the evidence) is not empty.
 * @see docs/language.md#pipejudge
 */
import { MESSAGES } from '../../messages.js';
import { judgePipeRule } from './judge-field-rule.js';

/** S4 PipeJudge non-empty prompt (`invalid_pipe_field`). */
export const judgePrompt = judgePipeRule('S4-judge-prompt', (blueprint, pipe) =>
  blueprint.prompt.trim() === '' ? [{ field: 'prompt', message: MESSAGES.judge_prompt_empty({ pipe }) }] : [],
);
