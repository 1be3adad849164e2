/**
 * S2: pipe codes (the `[pipe.<code>]` keys) are snake_case. A code written qualified (`[pipe."legal.summarize"]`) gets
 * its own message and the `strip-namespace` fix.
 * @see LANGUAGE.md §1.3, §3.1, §6 S2; spec §2.7
 */
import { MESSAGES } from '../../messages.js';
import type { LoadedBundle } from '../../library/library.js';
import { PIPE_CODE, toSnakeCase } from '../../references.js';
import { bundleItem } from '../rule-item.js';
import type { Rule } from '../rule.js';
import { namespacedCode, stripNamespaceFromKey } from './strip-namespace.js';

function report(bundle: LoadedBundle, code: string) {
  const namespaced = namespacedCode(code, 'pipe');
  if (!namespaced) return bundleItem(pipeCodeCasing, bundle, MESSAGES.pipe_code_casing({ code, suggestion: toSnakeCase(code) }), { field_path: `pipe.${code}` });
  const fixable = !Object.hasOwn(bundle.blueprint.pipe, namespaced.code);
  return bundleItem(pipeCodeCasing, bundle, MESSAGES.namespaced_code({ kind: 'Pipe', code, bare: namespaced.code }), {
    field_path: `pipe.${code}`,
    ...(fixable && { suggested_fix: stripNamespaceFromKey(bundle, 'pipe', code, namespaced) }),
  });
}

/** S2 pipe code casing (`invalid_pipe_code_syntax`). */
export const pipeCodeCasing: Rule = {
  id: 'S2-pipe-code-casing',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_code_syntax',
  see: 'LANGUAGE.md §1.3, §6 S2',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) =>
      Object.keys(bundle.blueprint.pipe)
        .filter((code) => !PIPE_CODE.test(code))
        .map((code) => ({ ...report(bundle, code), pipe_code: code })),
    ),
};
