/**
 * S2: concept codes are PascalCase.
 * @see LANGUAGE.md §1.3, §2.1, §6 S2
 */
import { MESSAGES } from '../../messages.js';
import { CONCEPT_CODE, toPascalCase } from '../../references.js';
import { conceptItem } from '../rule-item.js';
import type { Rule } from '../rule.js';

/** S2 concept code casing (`invalid_concept_code_syntax`). */
export const conceptCodeCasing: Rule = {
  id: 'S2-concept-code-casing',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_concept_code_syntax',
  see: 'LANGUAGE.md §1.3, §6 S2',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) =>
      Object.keys(bundle.blueprint.concept)
        .filter((code) => !CONCEPT_CODE.test(code))
        .map((code) =>
          conceptItem(conceptCodeCasing, bundle, code, MESSAGES.concept_code_casing({ code, suggestion: toPascalCase(code) }), { field_path: `concept.${code}` }),
        ),
    ),
};
