/**
 * S4 PipeLLM: every variable of `prompt` / `system_prompt` is a declared input (by root name; `_*`,
 * `preliminary_text` and `place_holder` are exempt), and every declared input is used by one of them
 * (LANGUAGE.md §3.2; error types `missing_input_variable`, `extraneous_input_variable`).
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import { declaredRoots, isExemptVariable, readTemplateRoots } from './template-check.js';
import { aboutPipe, pipesOf, type Rule } from './rule.js';

export const llmPromptVariables: Rule = {
  id: 'S4-llm-prompt-variables',
  stage: 'S4',
  severity: 'error',
  see: 'LANGUAGE.md §3.2',
  check: (context) => {
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      if (pipe.blueprint.type !== 'PipeLLM') continue;
      const used = new Set<string>();
      let readable = true;
      for (const field of ['prompt', 'system_prompt'] as const) {
        const template = pipe.blueprint[field];
        if (template === undefined) continue;
        const read = readTemplateRoots(pipe, field, template, 'llm_prompt');
        if ('item' in read) {
          items.push(read.item);
          readable = false;
        } else read.roots.forEach((root) => used.add(root));
      }
      if (!readable) continue;
      const declared = declaredRoots(pipe);
      const missing = [...used].filter((root) => !declared.has(root) && !isExemptVariable(root)).sort();
      if (missing.length > 0) {
        items.push({
          category: 'blueprint_validation',
          message: `Pipe '${pipe.code}': the prompt uses ${missing.map((name) => `'${name}'`).join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not a declared input (declared: ${[...declared].join(', ') || 'none'}). Declare ${missing.length > 1 ? 'them' : 'it'} in inputs or remove ${missing.length > 1 ? 'them' : 'it'} from the prompt.`,
          error_type: 'missing_input_variable',
          ...aboutPipe(pipe),
          field_path: `pipe.${pipe.code}.prompt`,
          variable_names: missing,
        });
      }
      const unused = [...declared].filter((root) => !used.has(root)).sort();
      if (unused.length > 0) {
        items.push({
          category: 'blueprint_validation',
          message: `Pipe '${pipe.code}': input${unused.length > 1 ? 's' : ''} ${unused.map((name) => `'${name}'`).join(', ')} ${unused.length > 1 ? 'are' : 'is'} declared but never used in prompt or system_prompt; reference ${unused.length > 1 ? 'them' : 'it'} (e.g. $${unused[0]}) or remove ${unused.length > 1 ? 'them' : 'it'}.`,
          error_type: 'extraneous_input_variable',
          ...aboutPipe(pipe),
          field_path: `pipe.${pipe.code}.inputs`,
          variable_names: unused,
        });
      }
    }
    return items;
  },
};
