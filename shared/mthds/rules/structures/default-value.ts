/**
 * S3: a `default_value` matches the field's type (text → string, integer → integer, number → number, boolean →
 * boolean, date → a TOML date or date-time, datetime → a TOML date-time, time → a TOML time, list → array, dict →
 * table), is one of the `choices` when they are set, and is absent on a `concept` field.
 * @see docs/concepts.md#structure-fields, docs/rules.md#structures-s3; docs/concepts.md#structure-fields (`datetime`,
 * `time`)
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { fieldItem, type StructureField, structureFields } from './structure-fields.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?$/;
const ISO_TIME = /^\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?$/;

const MATCHES_TYPE: Record<string, (value: unknown) => boolean> = {
  text: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
  number: (value) => typeof value === 'number',
  boolean: (value) => typeof value === 'boolean',
  date: (value) => typeof value === 'string' && ISO_DATE.test(value),
  datetime: (value) => typeof value === 'string' && ISO_DATETIME.test(value),
  time: (value) => typeof value === 'string' && ISO_TIME.test(value),
  list: (value) => Array.isArray(value),
  dict: (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
};

function problem({ field }: StructureField): string | undefined {
  const value = field.default_value;
  if (value === undefined) return undefined;
  if (field.type === 'concept') return 'is not allowed on a concept field';
  if (field.choices !== undefined)
    return typeof value === 'string' && field.choices.includes(value)
      ? undefined
      : `must be one of the choices (${field.choices.join(', ')})`;
  const matches = field.type === undefined ? undefined : MATCHES_TYPE[field.type];
  return matches && !matches(value) ? `does not match type "${field.type}"` : undefined;
}

/** S3 default values (`invalid_concept_field`). */
export const defaultValue: Rule = {
  id: 'S3-default-value',
  stage: 'S3',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_concept_field',
  see: 'docs/rules.md#s3-default-value',
  check: ({ bundles }) =>
    structureFields(bundles).flatMap((at) => {
      const why = problem(at);
      return why === undefined
        ? []
        : [
            fieldItem(
              defaultValue,
              at,
              MESSAGES.field_default_value({
                concept: at.concept,
                field: at.name,
                value: JSON.stringify(at.field.default_value),
                problem: why,
              }),
            ),
          ];
    }),
};
