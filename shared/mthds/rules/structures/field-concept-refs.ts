/**
 * S3: `concept_ref` is set if and only if `type = "concept"`; `item_concept_ref` if and only if
 * `item_type = "concept"`.
 * @see docs/concepts.md#structure-fields, docs/rules.md#structures-s3
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { fieldItem, structureFields } from './structure-fields.js';

/** S3 concept_ref / item_concept_ref presence (`invalid_concept_field`). */
export const fieldConceptRefs: Rule = {
  id: 'S3-field-concept-refs',
  stage: 'S3',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_concept_field',
  see: 'docs/rules.md#s3-field-concept-refs',
  check: ({ bundles }) =>
    structureFields(bundles).flatMap((at) => {
      const { field, concept, name } = at;
      const items: ValidationErrorItem[] = [];
      if ((field.type === 'concept') !== (field.concept_ref !== undefined)) {
        items.push(
          fieldItem(
            fieldConceptRefs,
            at,
            MESSAGES.field_concept_ref({ concept, field: name, key: 'concept_ref', missing: field.type === 'concept' }),
          ),
        );
      }
      if ((field.item_type === 'concept') !== (field.item_concept_ref !== undefined)) {
        items.push(
          fieldItem(
            fieldConceptRefs,
            at,
            MESSAGES.field_concept_ref({
              concept,
              field: name,
              key: 'item_concept_ref',
              missing: field.item_type === 'concept',
            }),
          ),
        );
      }
      return items;
    }),
};
