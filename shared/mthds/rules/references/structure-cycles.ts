/**
 * S5: concepts do not contain themselves through their structure fields (`concept_ref`, `item_concept_ref`, possibly
 * through refinements), since the reference builds structures in topological order.
 * @see docs/concepts.md#structure-fields, docs/rules.md#references-s5
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { conceptItem } from '../rule-item.js';
import { conceptCycles } from './concept-graph.js';
import { declaringBundle } from './declaring-bundle.js';

/** S5 structure cycles (`circular_dependency_error`). */
export const structureCycles: Rule = {
  id: 'S5-structure-cycles',
  stage: 'S5',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'circular_dependency_error',
  see: 'docs/rules.md#s5-structure-cycles',
  check: ({ library, bundles }) =>
    conceptCycles(library)
      .filter((cycle) => cycle.kinds.some((kind) => kind === 'field'))
      .flatMap((cycle) => {
        const first = library.concepts.get(cycle.refs[0] ?? '');
        const bundle = first && declaringBundle(bundles, first);
        if (!first || !bundle) return [];
        const message = MESSAGES.concept_ref_cycle({ ref: first.ref, chain: [...cycle.refs, first.ref] });
        return [
          conceptItem(structureCycles, bundle, first.code, message, {
            field_path: `concept.${first.code}.structure`,
            field_name: 'structure',
          }),
        ];
      }),
};
