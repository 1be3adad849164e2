/**
 * S3: a structure field name does not start with `_` and does not collide with the attribute names of the structure
 * classes the reference generates (Pydantic `model_*` and the legacy `BaseModel` methods). Applies to string-form
 * fields
 * too.
 * @see docs/concepts.md#structure-fields, docs/rules.md#structures-s3
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { fieldItem } from './structure-fields.js';

/** Field names taken by the generated structure classes. */
const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set([
  'dict',
  'json',
  'copy',
  'schema',
  'schema_json',
  'construct',
  'validate',
  'parse_obj',
  'parse_raw',
  'parse_file',
  'from_orm',
  'update_forward_refs',
]);

/**
 * Why a name cannot be a structure field (a leading `_`, `model_*`, a reserved name), or undefined when it can.
 * @param name - a field name (also a PipeJudge question name, docs/language.md#pipejudge)
 */
export function fieldNameProblem(name: string): string | undefined {
  if (name.startsWith('_')) return `field names must not start with '_'`;
  if (name.startsWith('model_')) return `names starting with 'model_' are reserved`;
  if (RESERVED_FIELD_NAMES.has(name)) return `'${name}' is a reserved name`;
  return undefined;
}

/** S3 field names (`invalid_concept_field`). */
export const fieldName: Rule = {
  id: 'S3-field-name',
  stage: 'S3',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_concept_field',
  see: 'docs/rules.md#s3-field-name',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) =>
      Object.entries(bundle.blueprint.concept).flatMap(([concept, table]) => {
        if (typeof table === 'string' || typeof table.structure !== 'object') return [];
        return Object.keys(table.structure).flatMap((name) => {
          const why = fieldNameProblem(name);
          return why === undefined
            ? []
            : [
                fieldItem(
                  fieldName,
                  { bundle, concept, name },
                  MESSAGES.field_name_invalid({ concept, field: name, reason: why }),
                ),
              ];
        });
      }),
    ),
};
