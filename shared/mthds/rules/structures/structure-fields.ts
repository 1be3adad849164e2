/**
 * The structure fields written as tables, across the bundles: what every S3 rule iterates over (a field written as a
 * string is a text field whose description is the string, and has nothing to check).
 * @see docs/concepts.md#structure-fields
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { LoadedBundle } from '../../library/library.js';
import type { ConceptFieldBlueprint } from '../../parse/concept-blueprint.js';
import type { Rule } from '../rule.js';
import { conceptItem } from '../rule-item.js';

/** One table-form structure field. */
export interface StructureField {
  bundle: LoadedBundle;
  concept: string;
  name: string;
  field: ConceptFieldBlueprint;
}

/**
 * Every table-form structure field of the bundles, in declaration order.
 * @param bundles - the bundles
 */
export function structureFields(bundles: readonly LoadedBundle[]): StructureField[] {
  return bundles.flatMap((bundle) =>
    Object.entries(bundle.blueprint.concept).flatMap(([concept, table]) => {
      if (typeof table === 'string' || typeof table.structure !== 'object') return [];
      return Object.entries(table.structure).flatMap(([name, field]) =>
        typeof field === 'string' ? [] : [{ bundle, concept, name, field }],
      );
    }),
  );
}

/**
 * An item about one structure field.
 * @param rule - the emitting rule
 * @param at - the field
 * @param message - from MESSAGES
 */
export function fieldItem(
  rule: Rule,
  at: Pick<StructureField, 'bundle' | 'concept' | 'name'>,
  message: string,
): ValidationErrorItem {
  return conceptItem(rule, at.bundle, at.concept, message, {
    field_path: `concept.${at.concept}.structure.${at.name}`,
    field_name: at.name,
  });
}
