/**
 * S4 PipeParallel: every branch has a `result` name, and the names are unique.
 * @see docs/pipes.md#pipeparallel, docs/rules.md#pipes-s4
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeParallel branch results (`invalid_pipe_field`). */
export const parallelBranchResults: Rule = {
  id: 'S4-parallel-branch-results',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-parallel-branch-results',
  check: (context) =>
    pipesOfType(context, 'PipeParallel').flatMap((pipe) => {
      const items: ValidationErrorItem[] = [];
      const seen = new Set<string>();
      pipe.blueprint.branches.forEach((branch, index) => {
        if (branch.result !== undefined && !seen.has(branch.result)) {
          seen.add(branch.result);
          return;
        }
        const at = `branches[${index}]`;
        items.push(
          pipeItem(
            parallelBranchResults,
            pipe,
            MESSAGES.parallel_branch_result({ pipe: pipe.code, at, result: branch.result }),
            pipeField(pipe, `${at}.result`),
          ),
        );
      });
      return items;
    }),
};
