/**
 * S4 PipeLLM: every variable of `prompt` and `system_prompt` is a declared input, compared by root name (`$a.b` needs
 * input `a`); `_*`, `preliminary_text` and `place_holder` are exempt. One item per template field with undeclared
 * variables; unreadable templates are left to the template-syntax rule.
 * @see docs/pipes.md#pipellm, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { declaredRoots, pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { isExemptVariable, readTemplate, templateSites } from './template-sites.js';

/** S4 PipeLLM undeclared prompt variables (`missing_input_variable`). */
export const llmPromptVariables: Rule = {
  id: 'S4-llm-prompt-variables',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'missing_input_variable',
  see: 'docs/rules.md#s4-llm-prompt-variables',
  check: (context) =>
    pipesOfType(context, 'PipeLLM').flatMap((pipe) => {
      const declared = declaredRoots(pipe);
      return templateSites(pipe).flatMap((site) => {
        const read = readTemplate(site);
        if ('error' in read) return [];
        const missing = read.roots.filter((root) => !declared.includes(root) && !isExemptVariable(root)).sort();
        if (missing.length === 0) return [];
        const message = MESSAGES.llm_undeclared_variables({ pipe: pipe.code, names: missing, declared });
        return [
          pipeItem(llmPromptVariables, pipe, message, { ...pipeField(pipe, site.field), variable_names: missing }),
        ];
      });
    }),
};
