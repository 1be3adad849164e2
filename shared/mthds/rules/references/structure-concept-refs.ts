/**
 * S5: the concept references inside concepts resolve: `refines`, and the `concept_ref` / `item_concept_ref` of
 * structure fields (docs/namespaces.md#resolution-order). Cross-package references to a package that is not loaded are
 * deferred.
 * @see docs/concepts.md#declaring-a-concept, docs/concepts.md#structure-fields, docs/namespaces.md#resolution-order,
 * docs/rules.md#references-s5
 */
import { MESSAGES } from '../../messages.js';
import { stripMultiplicity } from '../../references.js';
import type { Rule } from '../rule.js';
import { conceptItem } from '../rule-item.js';
import { conceptRefProblem } from './concept-ref-problem.js';
import { conceptTableRefsOf } from './references-of.js';

/** S5 concept references inside concepts resolve (`unresolved_concept`). */
export const structureConceptRefs: Rule = {
  id: 'S5-structure-concept-refs',
  stage: 'S5',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'unresolved_concept',
  see: 'docs/rules.md#s5-structure-concept-refs',
  check: ({ bundles, library, mode }) =>
    bundles.flatMap((bundle) =>
      conceptTableRefsOf(bundle).flatMap(({ code, field, ref }) => {
        const reason = conceptRefProblem(library, ref, bundle.blueprint.domain, mode);
        if (reason === undefined) return [];
        const message = MESSAGES.unresolved_concept({ where: `Concept '${code}'`, field, ref, reason });
        const details = {
          field_path: `concept.${code}.${field}`,
          field_name: field.split('.').pop() ?? field,
          missing_concept_code: stripMultiplicity(ref),
        };
        return [conceptItem(structureConceptRefs, bundle, code, message, details)];
      }),
    ),
};
