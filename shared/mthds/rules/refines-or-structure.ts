/**
 * S2: a concept does not set both `refines` and `structure`. LANGUAGE.md §2.1.
 */
import type { Rule } from './rule.js';

export const refinesOrStructure: Rule = {
  id: 'S2-refines-or-structure',
  stage: 'S2',
  severity: 'error',
  see: 'LANGUAGE.md §2.1',
  check: ({ bundles }) =>
    bundles.flatMap(({ blueprint, source }) =>
      Object.entries(blueprint.concept)
        .filter(([, concept]) => typeof concept === 'object' && concept.refines !== undefined && typeof concept.structure === 'object')
        .map(([code]) => ({
          category: 'blueprint_validation' as const,
          message: `Concept '${code}' sets both refines and structure; a refining concept takes its parent's structure. Keep one.`,
          error_type: 'refines_and_structure',
          source,
          concept_code: code,
          domain_code: blueprint.domain,
          field_path: `concept.${code}`,
        })),
    ),
};
