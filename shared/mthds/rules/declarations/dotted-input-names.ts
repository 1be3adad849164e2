/**
 * S2 (strict mode): input names, and a PipeBatch's `input_list_name`, are plain snake_case. The dotted inputs of
 * docs/pipes.md#common-fields (`page.page_view`) are obsolete in the current reference, which refuses them with
 * `invalid_input_name`; the 0.16 contract has no such error and published bundles use them, so compat mode keeps
 * accepting them.
 * @see docs/pipes.md#inputs-and-output, docs/pipes.md#common-fields
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { LoadedBundle } from '../../library/library.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { bundleItem } from '../rule-item.js';

function dottedItem(bundle: LoadedBundle, pipe: string, field: string, name: string): ValidationErrorItem {
  const [root = name, ...rest] = name.split('.');
  const path = field === 'input' ? `pipe.${pipe}.inputs.${name}` : `pipe.${pipe}.input_list_name`;
  const message = MESSAGES.dotted_input_name({ pipe, field, name, root, rest: rest.join('.') });
  const item = bundleItem(dottedInputNames, bundle, message, {
    field_path: path,
    field_name: field === 'input' ? name : 'input_list_name',
  });
  return { ...item, pipe_code: pipe };
}

/** S2 dotted input names, strict mode only (`invalid_input_name`). */
export const dottedInputNames: Rule = {
  id: 'S2-dotted-input-names',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_input_name',
  see: 'docs/rules.md#s2-dotted-input-names',
  check: ({ bundles, mode }) =>
    mode === 'compat'
      ? []
      : bundles.flatMap((bundle) =>
          Object.entries(bundle.blueprint.pipe).flatMap(([code, pipe]) => [
            ...Object.keys(pipe.inputs ?? {})
              .filter((name) => name.includes('.'))
              .map((name) => dottedItem(bundle, code, 'input', name)),
            ...(pipe.type === 'PipeBatch' && pipe.input_list_name.includes('.')
              ? [dottedItem(bundle, code, 'input_list_name', pipe.input_list_name)]
              : []),
          ]),
        ),
};
