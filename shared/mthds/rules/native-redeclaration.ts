/**
 * S2: a bundle does not declare a concept with a native code (`Text`, `Image`, …). LANGUAGE.md §2.1; fix id
 * `strip-native-concept-redecl`.
 */
import { NATIVE_CONCEPTS } from '../natives.js';
import type { Rule } from './rule.js';

export const nativeRedeclaration: Rule = {
  id: 'S2-native-redeclaration',
  stage: 'S2',
  severity: 'error',
  see: 'LANGUAGE.md §2.1',
  check: ({ bundles }) =>
    bundles.flatMap(({ blueprint, source }) =>
      Object.keys(blueprint.concept)
        .filter((code) => NATIVE_CONCEPTS.has(code))
        .map((code) => ({
          category: 'blueprint_validation' as const,
          message: `Concept '${code}' redeclares the native concept native.${code}; remove [concept.${code}] and use the native directly.`,
          error_type: 'native_concept_redeclaration',
          source,
          concept_code: code,
          domain_code: blueprint.domain,
          field_path: `concept.${code}`,
          suggested_fix: {
            fix_code: 'strip-native-concept-redecl',
            description: `Remove the redeclaration of native concept ${code}.`,
            safety: 'safe' as const,
            source,
            ops: [{ kind: 'delete_table' as const, table_path: ['concept', code] }],
          },
        })),
    ),
};
