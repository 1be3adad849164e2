/**
 * Placeholder contents of the build templates (spec §4.8–4.10; docs/codegen.md#post-v1buildinputs,
 * docs/codegen.md#post-v1buildoutput, docs/codegen.md#post-v1buildrunner), read from the type model:
 * a text is `<field>_value` (so a Text is `{"text": "text_value"}`), a date `2026-01-01`, a number 0, a boolean false,
 * an enum its first choice, a list one item, a dict empty, a nested concept its own placeholder; a field's
 * `default_value` wins. A declared concept lists every field; a native lists only its required ones. The same values
 * render as Python constructor expressions of the `python-structures` classes for runner scripts.
 */
import type { Multiplicity } from '../mthds/index.js';
import { pythonAttribute, pythonLiteral } from './emit-python.js';
import type { FieldType, TypedField, TypeSet } from './type-model.js';

function placeholderValue(types: TypeSet, name: string, type: FieldType): unknown {
  switch (type.kind) {
    case 'text':
    case 'any':
      return `${name}_value`;
    case 'date':
      return '2026-01-01';
    case 'datetime':
      return '2026-01-01T00:00:00Z';
    case 'time':
      return '00:00:00';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'enum':
      return type.choices[0];
    case 'list':
      return [placeholderValue(types, name, type.item)];
    case 'dict':
      return {};
    case 'object':
      return Object.fromEntries(
        type.fields
          .filter((field) => field.required)
          .map((field) => [field.name, placeholderValue(types, field.name, field.type)]),
      );
    case 'concept':
      return placeholderContent(types, type.ref);
  }
}

function listedFields(types: TypeSet, ref: string): TypedField[] {
  const concept = types.conceptOf(ref);
  if (concept.shape.kind === 'alias') return listedFields(types, concept.shape.target);
  if (concept.shape.kind === 'open') return [];
  return concept.isNative ? concept.shape.fields.filter((field) => field.required) : concept.shape.fields;
}

/**
 * The placeholder content of one item of a concept.
 * @param types - the library's type model
 * @param ref - a concept ref the type model covers
 * @returns a JSON object valid against the concept's content schema
 */
export function placeholderContent(types: TypeSet, ref: string): Record<string, unknown> {
  return Object.fromEntries(
    listedFields(types, ref).map((field) => [
      field.name,
      field.default !== undefined ? field.default : placeholderValue(types, field.name, field.type),
    ]),
  );
}

function pythonValue(types: TypeSet, type: FieldType, value: unknown, used: Set<string>): string {
  if (type.kind === 'concept' && value !== null && typeof value === 'object' && !Array.isArray(value))
    return pythonConstructor(types, type.ref, value as Record<string, unknown>, used);
  if (type.kind === 'list' && Array.isArray(value))
    return `[${value.map((item) => pythonValue(types, type.item, item, used)).join(', ')}]`;
  return pythonLiteral(value);
}

/**
 * A placeholder content as a constructor call of its `python-structures` class, e.g. `TextContent(text="text_value")`.
 * @param types - the library's type model
 * @param ref - the concept ref
 * @param content - a content from {@link placeholderContent}
 * @param used - collects the class names the expression uses (for the script's import line)
 */
export function pythonConstructor(
  types: TypeSet,
  ref: string,
  content: Record<string, unknown>,
  used: Set<string>,
): string {
  const name = types.nameOf(ref);
  used.add(name);
  const fields = new Map(listedFields(types, ref).map((field) => [field.name, field]));
  const keywords = Object.entries(content).map(([key, value]) => {
    const field = fields.get(key);
    return `${pythonAttribute(key)}=${field ? pythonValue(types, field.type, value, used) : pythonLiteral(value)}`;
  });
  return `${name}(${keywords.join(', ')})`;
}

/**
 * An item repeated as its multiplicity asks: the item itself for a single, a list of one item for `[]`, of N for `[N]`
 * (spec §4.8–4.10).
 * @param multiplicity - the input's or output's multiplicity
 * @param item - the placeholder of one item
 */
export function repeatByMultiplicity<T>(multiplicity: Multiplicity, item: T): T | T[] {
  if (multiplicity === 'single') return item;
  return Array.from({ length: typeof multiplicity === 'number' ? multiplicity : 1 }, () => item);
}

/**
 * {@link repeatByMultiplicity} of a Python expression, as Python source: the expression, or a list literal of it.
 * @param multiplicity - the input's or output's multiplicity
 * @param expression - Python source of one item
 */
export function pythonRepeated(multiplicity: Multiplicity, expression: string): string {
  const repeated = repeatByMultiplicity(multiplicity, expression);
  return Array.isArray(repeated) ? `[${repeated.join(', ')}]` : repeated;
}
