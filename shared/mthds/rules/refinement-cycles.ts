/**
 * S5: the `refines` graph and the concept-reference graph of structures have no cycles through refinement
 * (LANGUAGE.md §2.4, §6 S5).
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import type { Rule } from './rule.js';

export const refinementCycles: Rule = {
  id: 'S5-refinement-cycles',
  stage: 'S5',
  severity: 'error',
  see: 'LANGUAGE.md §2.4',
  check: ({ library }) => {
    const items: ValidationErrorItem[] = [];
    const reported = new Set<string>();
    for (const concept of library.concepts.values()) {
      const chain: string[] = [];
      let current = concept.refines;
      const seen = new Set([concept.ref]);
      while (current !== null) {
        chain.push(current);
        if (seen.has(current)) {
          if (current === concept.ref && !reported.has(concept.ref)) {
            chain.forEach((ref) => reported.add(ref));
            items.push({
              category: 'blueprint_validation',
              message: `Concept '${concept.ref}' refines itself through ${[concept.ref, ...chain].join(' → ')}; refinement must not loop.`,
              error_type: 'circular_dependency_error',
              concept_code: concept.code,
              domain_code: concept.domain_code,
            });
          }
          break;
        }
        seen.add(current);
        current = library.concepts.get(current)?.refines ?? null;
      }
    }
    return items;
  },
};
