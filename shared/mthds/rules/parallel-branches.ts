/**
 * S4 PipeParallel: `add_each_output` or `combined_output` is set, and every branch has a unique `result`
 * (LANGUAGE.md §3.9).
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import { pipeFieldItem } from './field-item.js';
import { pipesOf, type Rule } from './rule.js';

export const parallelBranches: Rule = {
  id: 'S4-parallel-branches',
  stage: 'S4',
  severity: 'error',
  see: 'LANGUAGE.md §3.9',
  check: (context) => {
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      if (pipe.blueprint.type !== 'PipeParallel') continue;
      if (!pipe.blueprint.add_each_output && !pipe.blueprint.combined_output) {
        items.push(pipeFieldItem(pipe, 'add_each_output', 'set add_each_output = true or a combined_output concept.'));
      }
      const seen = new Set<string>();
      pipe.blueprint.branches.forEach((branch, index) => {
        if (!branch.result) items.push(pipeFieldItem(pipe, `branches[${index}].result`, 'every branch needs a result name.'));
        else if (seen.has(branch.result)) items.push(pipeFieldItem(pipe, `branches[${index}].result`, `result '${branch.result}' is used by two branches.`));
        else seen.add(branch.result);
      });
    }
    return items;
  },
};
