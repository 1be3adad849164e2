/**
 * S4 PipeJudge: every declared input is used (by root name) in the prompt or in a question. Skipped when a template is
 * unreadable (the template-syntax rule reports it). Undeclared variables are the template-variables rule's.
 * @see LANGUAGE-DELTA.md §3
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { declaredRoots, pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { readTemplate, templateSites } from './template-sites.js';

/** S4 PipeJudge unused inputs (`extraneous_input_variable`). */
export const judgeInputsUsed: Rule = {
  id: 'S4-judge-inputs-used',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'extraneous_input_variable',
  see: 'LANGUAGE-DELTA.md §3',
  check: (context) =>
    pipesOfType(context, 'PipeJudge').flatMap((pipe) => {
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
        pipeItem(judgeInputsUsed, pipe, MESSAGES.judge_unused_inputs({ pipe: pipe.code, names: unused }), {
          ...pipeField(pipe, 'inputs'),
          variable_names: unused,
        }),
      ];
    }),
};
