/**
 * S5: a cross-package pipe reference (`<address or alias>->domain.pipe_code`) names a package the library holds. This
 * runner installs no packages: a package is loaded when its bundles come with the request, or when a `method_ref`
 * fetched it with the package that references it. A reference to any other package is refused — one item per package,
 * on the first pipe (in declaration order) and field naming it, with the reference as written in `missing_pipe_code`;
 * the reference stopped reporting such pipes as SKIPPED in its dry run.
 * @see docs/namespaces.md#cross-package-references, docs/namespaces.md#cross-package-references
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import { MESSAGES } from '../../messages.js';
import { parsePipeRef } from '../../references.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { pipeRefsOf } from './references-of.js';

/** S5 cross-package references name loaded packages (`unresolved_package_dependency`). */
export const packageRefs: Rule = {
  id: 'S5-package-refs',
  stage: 'S5',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'unresolved_package_dependency',
  see: 'docs/rules.md#s5-package-refs',
  check: (context) => {
    const reported = new Set<string>();
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      for (const { field, ref } of pipeRefsOf(pipe)) {
        const parts = parsePipeRef(ref);
        const packageRef = parts?.packageRef;
        if (packageRef === undefined || reported.has(packageRef.toLowerCase())) continue;
        if (parts?.domain !== undefined && context.library.domains.has(parts.domain)) continue;
        reported.add(packageRef.toLowerCase());
        const message = MESSAGES.unresolved_package({ pipe: pipe.code, field, ref, packageRef });
        items.push(pipeItem(packageRefs, pipe, message, { ...pipeField(pipe, field), missing_pipe_code: ref }));
      }
    }
    return items;
  },
};
