/**
 * S3: a field has a `type`, or non-empty `choices` (an enum field). `choices` together with a `type` is refused, except
 * `type = "text"` in compat mode (the published corpus relies on it, docs/concepts.md#structure-fields).
 * @see docs/concepts.md#structure-fields, docs/rules.md#structures-s3
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { fieldItem, structureFields } from './structure-fields.js';

/** S3 field type or choices (`invalid_concept_field`). */
export const fieldType: Rule = {
  id: 'S3-field-type',
  stage: 'S3',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_concept_field',
  see: 'docs/rules.md#s3-field-type',
  check: ({ bundles, mode }) =>
    structureFields(bundles).flatMap((at): ValidationErrorItem[] => {
      const { field, concept, name } = at;
      const choices = field.choices ?? [];
      if (field.type === undefined)
        return choices.length > 0
          ? []
          : [fieldItem(fieldType, at, MESSAGES.field_needs_type({ concept, field: name }))];
      if (field.choices === undefined || (field.type === 'text' && mode === 'compat')) return [];
      return [
        fieldItem(
          fieldType,
          at,
          MESSAGES.field_choices_with_type({ concept, field: name, type: field.type, strict: mode === 'strict' }),
        ),
      ];
    }),
};
