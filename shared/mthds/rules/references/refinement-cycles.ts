/**
 * S5: the `refines` graph has no cycle (a concept refining itself, directly or through others).
 * @see docs/concepts.md#refinement-and-compatibility, docs/rules.md#references-s5
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { conceptItem } from '../rule-item.js';
import { conceptCycles } from './concept-graph.js';
import { declaringBundle } from './declaring-bundle.js';

/** S5 refinement cycles (`circular_dependency_error`). */
export const refinementCycles: Rule = {
  id: 'S5-refinement-cycles',
  stage: 'S5',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'circular_dependency_error',
  see: 'docs/rules.md#s5-refinement-cycles',
  check: ({ library, bundles }) =>
    conceptCycles(library)
      .filter((cycle) => cycle.kinds.every((kind) => kind === 'refines'))
      .flatMap((cycle) => {
        const first = library.concepts.get(cycle.refs[0] ?? '');
        const bundle = first && declaringBundle(bundles, first);
        if (!first || !bundle) return [];
        const message = MESSAGES.refinement_cycle({ ref: first.ref, chain: [...cycle.refs, first.ref] });
        return [
          conceptItem(refinementCycles, bundle, first.code, message, {
            field_path: `concept.${first.code}.refines`,
            field_name: 'refines',
          }),
        ];
      }),
};
