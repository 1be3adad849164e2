/**
 * S2 (warning): pipe codes and input names that pass the docs' snake_case but not the stricter form of the reference
 * SDKs (words joined by single underscores: no `__`, no trailing `_`).
 * @see docs/bundle-format.md#naming, docs/rules.md#declarations-s2
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import { MESSAGES } from '../../messages.js';
import { INPUT_NAME, PIPE_CODE } from '../../references.js';
import type { Rule } from '../rule.js';
import { bundleItem } from '../rule-item.js';

const STRICT_SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** S2 strict snake_case of pipe codes and input names (warning, `invalid_pipe_code_syntax`). */
export const strictSnakeCase: Rule = {
  id: 'S2-strict-snake-case',
  stage: 'S2',
  severity: 'warning',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_code_syntax',
  see: 'docs/rules.md#s2-strict-snake-case',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) =>
      Object.entries(bundle.blueprint.pipe).flatMap(([code, pipe]): ValidationErrorItem[] => {
        const items: ValidationErrorItem[] = [];
        if (PIPE_CODE.test(code) && !STRICT_SNAKE.test(code)) {
          items.push({
            ...bundleItem(
              strictSnakeCase,
              bundle,
              MESSAGES.strict_snake_case({ kind: 'pipe code', pipe: code, name: code }),
              { field_path: `pipe.${code}` },
            ),
            pipe_code: code,
          });
        }
        for (const name of Object.keys(pipe.inputs ?? {})) {
          if (!INPUT_NAME.test(name) || name.split('.').every((segment) => STRICT_SNAKE.test(segment))) continue;
          const message = MESSAGES.strict_snake_case({ kind: 'input name', pipe: code, name });
          items.push({
            ...bundleItem(strictSnakeCase, bundle, message, {
              field_path: `pipe.${code}.inputs.${name}`,
              field_name: name,
            }),
            pipe_code: code,
          });
        }
        return items;
      }),
    ),
};
