/**
 * S2: pipe codes (the `[pipe.<code>]` keys) are snake_case.
 * @see LANGUAGE.md §1.3, §3.1, §6 S2
 */
import { MESSAGES } from '../../messages.js';
import { PIPE_CODE, toSnakeCase } from '../../references.js';
import { bundleItem } from '../rule-item.js';
import type { Rule } from '../rule.js';

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
        .map((code) => ({
          ...bundleItem(pipeCodeCasing, bundle, MESSAGES.pipe_code_casing({ code, suggestion: toSnakeCase(code) }), { field_path: `pipe.${code}` }),
          pipe_code: code,
        })),
    ),
};
