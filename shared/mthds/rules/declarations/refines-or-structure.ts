/**
 * S2: a concept does not set both `refines` and `structure` (an inline structure table or a structure name).
 * @see docs/concepts.md#declaring-a-concept, docs/rules.md#declarations-s2
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { conceptItem } from '../rule-item.js';

/** S2 refines and structure are exclusive (`refines_and_structure`). */
export const refinesOrStructure: Rule = {
  id: 'S2-refines-or-structure',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'refines_and_structure',
  see: 'docs/rules.md#s2-refines-or-structure',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) =>
      Object.entries(bundle.blueprint.concept).flatMap(([code, concept]) => {
        if (typeof concept === 'string' || concept.refines === undefined || concept.structure === undefined) return [];
        return [
          conceptItem(
            refinesOrStructure,
            bundle,
            code,
            MESSAGES.refines_and_structure({ code, refines: concept.refines }),
            { field_path: `concept.${code}` },
          ),
        ];
      }),
    ),
};
