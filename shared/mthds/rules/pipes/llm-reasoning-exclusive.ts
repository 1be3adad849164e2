/**
 * S4 PipeLLM: an inline LLM setting (`model` or `model_to_structure` table) does not set both `reasoning_effort` and
 * `reasoning_budget`.
 * @see docs/pipes.md#pipellm, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeLLM reasoning settings are exclusive (`invalid_pipe_field`). */
export const llmReasoningExclusive: Rule = {
  id: 'S4-llm-reasoning-exclusive',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-llm-reasoning-exclusive',
  check: (context) =>
    pipesOfType(context, 'PipeLLM').flatMap((pipe) =>
      (['model', 'model_to_structure'] as const).flatMap((field) => {
        const setting = pipe.blueprint[field];
        if (typeof setting !== 'object' || !('temperature' in setting)) return [];
        if (setting.reasoning_effort === undefined || setting.reasoning_budget === undefined) return [];
        return [
          pipeItem(
            llmReasoningExclusive,
            pipe,
            MESSAGES.llm_reasoning_exclusive({ pipe: pipe.code, field }),
            pipeField(pipe, field),
          ),
        ];
      }),
    ),
};
