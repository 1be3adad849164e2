/**
 * S5b: every binding path of a PipeSequence (a binding step's `from`, a dotted `batch_over`) whose root is known at
 * that step resolves against the declared structures (docs/data-flow.md#binding-steps, a newer reference feature). A
 * root that
 * is not available is reported by V-C1.
 * @see docs/rules.md#data-flow-s5b, docs/data-flow.md#binding-steps
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { unresolvedPaths } from './sequence-flow.js';

/** S5b binding paths resolve (`binding_path_unresolved`). */
export const bindingPaths: Rule = {
  id: 'S5b-binding-paths',
  stage: 'S5b',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'binding_path_unresolved',
  see: 'docs/rules.md#s5b-binding-paths',
  check: (context) =>
    pipesOfType(context, 'PipeSequence').flatMap((pipe) =>
      unresolvedPaths(context.library, pipe).map((unresolved) =>
        pipeItem(
          bindingPaths,
          pipe,
          MESSAGES.binding_path_unresolved({
            pipe: pipe.code,
            field: unresolved.field,
            path: unresolved.path,
            segment: unresolved.segment,
            within: unresolved.within,
            available: unresolved.available,
          }),
          pipeField(pipe, unresolved.field),
        ),
      ),
    ),
};
