/**
 * S2: a bundle does not declare a concept whose code is a native code (`Text`, `Image`, …); the fix removes the table
 * (fix id `strip-native-concept-redecl`).
 * @see docs/concepts.md#declaring-a-concept, docs/concepts.md#native-concepts, docs/rules.md#declarations-s2
 */

import { NATIVE_CONCEPTS } from '../../library/natives.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { conceptItem } from '../rule-item.js';

/** S2 native concept redeclaration (`native_concept_redeclaration`). */
export const nativeRedeclaration: Rule = {
  id: 'S2-native-redeclaration',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'native_concept_redeclaration',
  see: 'docs/rules.md#s2-native-redeclaration',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) =>
      Object.keys(bundle.blueprint.concept)
        .filter((code) => NATIVE_CONCEPTS.has(code))
        .map((code) =>
          conceptItem(nativeRedeclaration, bundle, code, MESSAGES.native_redeclaration({ code }), {
            field_path: `concept.${code}`,
            suggested_fix: {
              fix_code: 'strip-native-concept-redecl',
              description: `Remove [concept.${code}]: ${code} is a native concept.`,
              safety: 'safe',
              source: bundle.source,
              ops: [{ kind: 'delete_table', table_path: ['concept', code] }],
            },
          }),
        ),
    ),
};
