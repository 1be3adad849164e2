/**
 * Concept blueprints: a `[concept.Code]` table and its structure fields written as tables
 * (docs/concepts.md#declaring-a-concept, docs/concepts.md#structure-fields).
 */
import { z } from 'zod';
import { nullish } from './nullish-field.js';

/** A structure field written as a table (docs/concepts.md#structure-fields). Unknown keys are refused. */
export const CONCEPT_FIELD = z.strictObject({
  description: z.string(),
  type: nullish(
    z.enum(['text', 'integer', 'number', 'boolean', 'date', 'datetime', 'time', 'list', 'dict', 'concept']),
  ),
  key_type: nullish(z.string()),
  value_type: nullish(z.string()),
  item_type: nullish(z.string()),
  concept_ref: nullish(z.string()),
  item_concept_ref: nullish(z.string()),
  choices: nullish(z.array(z.string())),
  default_value: z.unknown().optional(),
  required: nullish(z.boolean()),
  /** Non-normative presentation hints (docs/concepts.md#hints), e.g. `{ intent = "label" }`. */
  hints: nullish(z.record(z.string(), z.string())),
});
/** A structure field as written (table form). */
export type ConceptFieldBlueprint = z.infer<typeof CONCEPT_FIELD>;

/** A `[concept.Code]` table (docs/concepts.md#declaring-a-concept). */
export const CONCEPT_BLUEPRINT = z.strictObject({
  description: z.string(),
  structure: nullish(z.union([z.string(), z.record(z.string(), z.union([z.string(), CONCEPT_FIELD]))])),
  refines: nullish(z.string()),
  /** Non-normative presentation hints of the concept (docs/concepts.md#hints). */
  hints: nullish(z.record(z.string(), z.string())),
});
/** A concept table as written. */
export type ConceptBlueprint = z.infer<typeof CONCEPT_BLUEPRINT>;
