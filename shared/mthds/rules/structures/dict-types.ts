/**
 * S3: a `dict` field names non-empty `key_type` and `value_type`.
 * @see docs/concepts.md#structure-fields, docs/rules.md#structures-s3
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { fieldItem, structureFields } from './structure-fields.js';

/** S3 dict key and value types (`invalid_concept_field`). */
export const dictTypes: Rule = {
  id: 'S3-dict-types',
  stage: 'S3',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_concept_field',
  see: 'docs/rules.md#s3-dict-types',
  check: ({ bundles }) =>
    structureFields(bundles)
      .filter(({ field }) => field.type === 'dict' && (!field.key_type?.trim() || !field.value_type?.trim()))
      .map((at) => fieldItem(dictTypes, at, MESSAGES.field_dict_types({ concept: at.concept, field: at.name }))),
};
