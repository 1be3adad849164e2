/**
 * S2: concept codes are PascalCase. A code written qualified (`[concept."legal.Clause"]`) gets its own message and the
 * `strip-namespace` fix (none when the bare code is taken or is a native).
 * @see docs/bundle-format.md#naming, docs/concepts.md#declaring-a-concept, docs/rules.md#declarations-s2; spec §2.7
 */

import type { LoadedBundle } from '../../library/library.js';
import { NATIVE_CONCEPTS } from '../../library/natives.js';
import { MESSAGES } from '../../messages.js';
import { CONCEPT_CODE, toPascalCase } from '../../references.js';
import type { Rule } from '../rule.js';
import { conceptItem } from '../rule-item.js';
import { miscasedKeyReport } from './strip-namespace.js';

function report(bundle: LoadedBundle, code: string) {
  const isTaken = (bare: string) => Object.hasOwn(bundle.blueprint.concept, bare) || NATIVE_CONCEPTS.has(bare);
  const { message, details } = miscasedKeyReport(
    bundle,
    'concept',
    code,
    MESSAGES.concept_code_casing({ code, suggestion: toPascalCase(code) }),
    isTaken,
  );
  return conceptItem(conceptCodeCasing, bundle, code, message, details);
}

/** S2 concept code casing (`invalid_concept_code_syntax`). */
export const conceptCodeCasing: Rule = {
  id: 'S2-concept-code-casing',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_concept_code_syntax',
  see: 'docs/rules.md#s2-concept-code-casing',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) =>
      Object.keys(bundle.blueprint.concept)
        .filter((code) => !CONCEPT_CODE.test(code))
        .map((code) => report(bundle, code)),
    ),
};
