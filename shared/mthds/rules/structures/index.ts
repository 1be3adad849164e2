/**
 * Stage S3 rules (concept structure fields), in order of enforcement.
 * @see docs/rules.md#structures-s3
 */
import type { Rule } from '../rule.js';
import { conceptExtent } from './concept-extent.js';
import { defaultValue } from './default-value.js';
import { dictTypes } from './dict-types.js';
import { fieldConceptRefs } from './field-concept-refs.js';
import { fieldName } from './field-name.js';
import { fieldType } from './field-type.js';
import { requiredWithDefault } from './required-with-default.js';

/** The S3 rules, in order. */
export const S3_RULES: readonly Rule[] = [
  fieldName,
  fieldType,
  dictTypes,
  fieldConceptRefs,
  defaultValue,
  requiredWithDefault,
  conceptExtent,
];
