/**
 * S3 (E3): a structure field is not both `required = true` and given a `default_value` — a default makes the field's
 * absence legal, which contradicts requiring it. The item has the reference's shape for a concept blueprint error: no
 * `error_type`, the concept located by `concept_code`, the field by the path at the head of the message.
 * @see docs/concepts.md#structure-fields (E3, reference fixture `required_with_default`)
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { conceptItem } from '../rule-item.js';
import { structureFields } from './structure-fields.js';

/** S3 `required = true` with a `default_value` (no `error_type`, as the reference). */
export const requiredWithDefault: Rule = {
  id: 'S3-required-with-default',
  stage: 'S3',
  severity: 'error',
  category: 'blueprint_validation',
  see: 'docs/rules.md#s3-required-with-default',
  check: ({ bundles }) =>
    structureFields(bundles).flatMap(({ bundle, concept, name, field }) =>
      field.required === true && field.default_value !== undefined
        ? [
            conceptItem(
              requiredWithDefault,
              bundle,
              concept,
              MESSAGES.field_required_with_default({
                concept,
                field: name,
                value: JSON.stringify(field.default_value),
              }),
            ),
          ]
        : [],
    ),
};
