/**
 * S2: input names (keys of `inputs`) are snake_case, or dotted snake_case segments (`page_content.page_view`).
 * @see docs/bundle-format.md#naming, docs/pipes.md#common-fields, docs/rules.md#declarations-s2
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import { MESSAGES } from '../../messages.js';
import { INPUT_NAME, toSnakeCase } from '../../references.js';
import type { Rule } from '../rule.js';
import { bundleItem } from '../rule-item.js';

/** S2 input name casing (`invalid_input_name`). */
export const inputNameCasing: Rule = {
  id: 'S2-input-name-casing',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_input_name',
  see: 'docs/rules.md#s2-input-name-casing',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) =>
      Object.entries(bundle.blueprint.pipe).flatMap(([code, pipe]) =>
        Object.keys(pipe.inputs ?? {})
          .filter((name) => !INPUT_NAME.test(name))
          .map((name): ValidationErrorItem => {
            const suggestion = name.split('.').map(toSnakeCase).join('.');
            const item = bundleItem(
              inputNameCasing,
              bundle,
              MESSAGES.input_name_casing({ pipe: code, name, suggestion }),
              {
                field_path: `pipe.${code}.inputs.${name}`,
                field_name: name,
              },
            );
            return { ...item, pipe_code: code };
          }),
      ),
    ),
};
