/**
 * S3: structure fields are coherent (LANGUAGE.md §2.2, §6 S3): a type or non-empty choices; `choices` only with no
 * type (or, in compat mode, `text`); dict fields name key and value types; `concept_ref` iff `type = "concept"`;
 * `item_concept_ref` iff `item_type = "concept"`; no default on a concept field; a default among the choices and of the
 * field's type; field names not starting with `_`.
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import type { ConceptFieldBlueprint } from '../blueprint.js';
import type { Rule, ValidationMode } from './rule.js';

const DEFAULT_TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  text: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
  number: (value) => typeof value === 'number',
  boolean: (value) => typeof value === 'boolean',
  date: (value) => typeof value === 'string',
  list: (value) => Array.isArray(value),
  dict: (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
};

function fieldProblems(name: string, field: ConceptFieldBlueprint, mode: ValidationMode): string[] {
  const problems: string[] = [];
  const hasChoices = field.choices !== undefined;
  if (name.startsWith('_')) problems.push(`field name '${name}' must not start with '_'`);
  if (field.type === undefined && (!hasChoices || field.choices!.length === 0)) problems.push('set a type, or non-empty choices for an enum field');
  if (hasChoices && field.type !== undefined && !(mode === 'compat' && field.type === 'text')) {
    problems.push(`choices make an enum field: remove type = "${field.type}"`);
  }
  if (field.type === 'dict' && (!field.key_type || !field.value_type)) problems.push('a dict field needs key_type and value_type');
  if ((field.type === 'concept') !== (field.concept_ref !== undefined)) problems.push('concept_ref is required with type = "concept" and only then');
  if ((field.item_type === 'concept') !== (field.item_concept_ref !== undefined)) problems.push('item_concept_ref is required with item_type = "concept" and only then');
  if (field.default_value !== undefined) {
    if (field.type === 'concept') problems.push('a concept field cannot have a default_value');
    else if (hasChoices && !field.choices!.includes(field.default_value as string)) problems.push(`default_value must be one of the choices (${field.choices!.join(', ')})`);
    else if (field.type !== undefined && DEFAULT_TYPE_CHECKS[field.type] && !DEFAULT_TYPE_CHECKS[field.type]!(field.default_value)) {
      problems.push(`default_value does not match type "${field.type}"`);
    }
  }
  return problems;
}

export const conceptFields: Rule = {
  id: 'S3-concept-fields',
  stage: 'S3',
  severity: 'error',
  see: 'LANGUAGE.md §2.2, §6 S3',
  check: ({ bundles, mode }) =>
    bundles.flatMap(({ blueprint, source }) => {
      const items: ValidationErrorItem[] = [];
      for (const [code, concept] of Object.entries(blueprint.concept)) {
        if (typeof concept === 'string' || typeof concept.structure !== 'object') continue;
        for (const [name, field] of Object.entries(concept.structure)) {
          if (typeof field === 'string') continue;
          for (const problem of fieldProblems(name, field, mode)) {
            items.push({
              category: 'blueprint_validation',
              message: `Concept '${code}', field '${name}': ${problem}.`,
              error_type: 'invalid_concept_field',
              source,
              concept_code: code,
              domain_code: blueprint.domain,
              field_path: `concept.${code}.structure.${name}`,
              field_name: name,
            });
          }
        }
      }
      return items;
    }),
};
