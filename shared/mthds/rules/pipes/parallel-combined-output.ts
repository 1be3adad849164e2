/**
 * S4 PipeParallel (strict mode): `combined_output` is not written. The 0.16 contract's closed PipeParallelBlueprint has
 * no such member (the reference refuses it as an extra field) and the newer reference always combines the branches
 * into the declared output; compat mode keeps accepting it, as docs/pipes.md#pipeparallel and older bundles have it,
 * and checks
 * the combination against it at run time.
 * @see docs/pipes.md#pipeparallel, docs/pipes.md#pipeparallel
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 retired PipeParallel `combined_output`, strict mode only (`extra_forbidden`). */
export const parallelCombinedOutput: Rule = {
  id: 'S4-parallel-combined-output',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'extra_forbidden',
  see: 'docs/rules.md#s4-parallel-combined-output',
  check: (context) =>
    context.mode === 'compat'
      ? []
      : pipesOfType(context, 'PipeParallel').flatMap((pipe) => {
          const concept = pipe.blueprint.combined_output;
          if (concept === undefined) return [];
          const message = MESSAGES.parallel_combined_output_retired({ pipe: pipe.code, concept });
          return [pipeItem(parallelCombinedOutput, pipe, message, pipeField(pipe, 'combined_output'))];
        }),
};
