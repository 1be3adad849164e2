/**
 * S4 PipeLLM: every declared input is used (by root name) in `prompt` or `system_prompt`; Image and Document inputs too,
 * where their reference is the attachment's placeholder. Skipped when a template is unreadable (the template-syntax
 * rule reports it).
 * @see LANGUAGE.md §3.2, §6 S4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { declaredRoots, pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { readTemplate, templateSites } from './template-sites.js';

/** S4 PipeLLM unused inputs (`extraneous_input_variable`). */
export const llmInputsUsed: Rule = {
  id: 'S4-llm-inputs-used',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'extraneous_input_variable',
  see: 'LANGUAGE.md §3.2, §6 S4',
  check: (context) =>
    pipesOfType(context, 'PipeLLM').flatMap((pipe) => {
      const used = new Set<string>();
      for (const site of templateSites(pipe)) {
        const read = readTemplate(site);
        if ('error' in read) return [];
        for (const root of read.roots) used.add(root);
      }
      const unused = declaredRoots(pipe)
        .filter((root) => !used.has(root))
        .sort();
      if (unused.length === 0) return [];
      return [
        pipeItem(llmInputsUsed, pipe, MESSAGES.llm_unused_inputs({ pipe: pipe.code, names: unused }), {
          ...pipeField(pipe, 'inputs'),
          variable_names: unused,
        }),
      ];
    }),
};
