/**
 * S4 PipeJudge: every declared input is used (by root name) in the prompt or in a question. Skipped when a template is
 * unreadable (the template-syntax rule reports it). Undeclared variables are the template-variables rule's.
 * @see docs/language.md#pipejudge
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipesOfType } from '../rule-item.js';
import { unusedInputsItems } from './unused-inputs.js';

/** S4 PipeJudge unused inputs (`extraneous_input_variable`). */
export const judgeInputsUsed: Rule = {
  id: 'S4-judge-inputs-used',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'extraneous_input_variable',
  see: 'docs/rules.md#s4-judge-inputs-used',
  check: (context) =>
    pipesOfType(context, 'PipeJudge').flatMap((pipe) =>
      unusedInputsItems(judgeInputsUsed, pipe, (names) => MESSAGES.judge_unused_inputs({ pipe: pipe.code, names })),
    ),
};
