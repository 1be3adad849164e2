/**
 * S2: pipe codes (the `[pipe.<code>]` keys) are snake_case. A code written qualified (`[pipe."legal.summarize"]`) gets
 * its own message and the `strip-namespace` fix.
 * @see docs/bundle-format.md#naming, docs/pipes.md#common-fields, docs/rules.md#declarations-s2; spec §2.7
 */

import type { LoadedBundle } from '../../library/library.js';
import { MESSAGES } from '../../messages.js';
import { PIPE_CODE, toSnakeCase } from '../../references.js';
import type { Rule } from '../rule.js';
import { bundleItem } from '../rule-item.js';
import { miscasedKeyReport } from './strip-namespace.js';

function report(bundle: LoadedBundle, code: string) {
  const isTaken = (bare: string) => Object.hasOwn(bundle.blueprint.pipe, bare);
  const { message, details } = miscasedKeyReport(
    bundle,
    'pipe',
    code,
    MESSAGES.pipe_code_casing({ code, suggestion: toSnakeCase(code) }),
    isTaken,
  );
  return bundleItem(pipeCodeCasing, bundle, message, details);
}

/** S2 pipe code casing (`invalid_pipe_code_syntax`). */
export const pipeCodeCasing: Rule = {
  id: 'S2-pipe-code-casing',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_code_syntax',
  see: 'docs/rules.md#s2-pipe-code-casing',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) =>
      Object.keys(bundle.blueprint.pipe)
        .filter((code) => !PIPE_CODE.test(code))
        .map((code) => ({ ...report(bundle, code), pipe_code: code })),
    ),
};
