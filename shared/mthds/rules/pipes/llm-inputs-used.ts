/**
 * S4 PipeLLM: every declared input is used (by root name) in `prompt` or `system_prompt`; Image and Document inputs
 * too,
 * where their reference is the attachment's placeholder. Skipped when a template is unreadable (the template-syntax
 * rule reports it).
 * @see docs/pipes.md#pipellm, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipesOfType } from '../rule-item.js';
import { unusedInputsItems } from './unused-inputs.js';

/** S4 PipeLLM unused inputs (`extraneous_input_variable`). */
export const llmInputsUsed: Rule = {
  id: 'S4-llm-inputs-used',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'extraneous_input_variable',
  see: 'docs/rules.md#s4-llm-inputs-used',
  check: (context) =>
    pipesOfType(context, 'PipeLLM').flatMap((pipe) =>
      unusedInputsItems(llmInputsUsed, pipe, (names) => MESSAGES.llm_unused_inputs({ pipe: pipe.code, names })),
    ),
};
