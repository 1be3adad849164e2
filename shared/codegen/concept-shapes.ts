/**
 * The content shape of each concept in the type model (docs/concepts.md#structure-fields,
 * docs/runtime.md#native-contents): a structure's fields with their types, a refinement's alias, the natives' shapes
 * read from their JSON schemas, and the concepts a shape refers to.
 */
import { type Concept, type ConceptField, type Library, NATIVE_CONCEPTS } from '../mthds/index.js';
import type { FieldType, TypedField, TypedShape } from './type-model.js';
import { pascal } from './type-names.js';

/** The qualified ref of the native Text, the target of a description-only concept's alias. */
export const TEXT = 'native.Text';
const SCALAR_KINDS = new Set(['text', 'integer', 'number', 'boolean', 'date', 'datetime', 'time']);

const TEXT_TYPE: FieldType = { kind: 'text' };

type JsonSchema = Record<string, unknown>;

function schemaFields(schema: JsonSchema): TypedField[] {
  const required = new Set((schema['required'] as string[] | undefined) ?? []);
  return Object.entries(schema['properties'] as Record<string, JsonSchema>).map(([name, property]) => ({
    name,
    description: '',
    required: required.has(name),
    type: schemaType(property, name),
  }));
}

function schemaType(schema: JsonSchema, name: string): FieldType {
  const options = schema['anyOf'] as JsonSchema[] | undefined;
  if (options) return schemaType(options.find((option) => option['type'] !== 'null')!, name);
  const ref = schema['$ref'];
  if (typeof ref === 'string') return { kind: 'concept', ref: `native.${ref.slice(ref.lastIndexOf('/') + 1)}` };
  const type = Array.isArray(schema['type'])
    ? (schema['type'] as unknown[]).find((option) => option !== 'null')
    : schema['type'];
  switch (type) {
    case 'string':
      return TEXT_TYPE;
    case 'integer':
    case 'number':
    case 'boolean':
      return { kind: type };
    case 'array':
      return { kind: 'list', item: schemaType(schema['items'] as JsonSchema, name) };
    default:
      return schema['properties']
        ? { kind: 'object', name: pascal(name), fields: schemaFields(schema) }
        : { kind: 'dict', value: { kind: 'any' } };
  }
}

const TEXT_CLASS = NATIVE_CONCEPTS.get('Text')!.structureClassName;

/**
 * The native shapes, read from the JSON schemas of `natives.ts` (docs/runtime.md#native-contents), by native code: a
 * native sharing
 * Text's runtime class (`ImgGenPrompt`) is an alias of Text, a schema without properties is open.
 */
const NATIVE_SHAPES: ReadonlyMap<string, TypedShape> = new Map(
  [...NATIVE_CONCEPTS.values()].map((native): [string, TypedShape] => {
    if (native.code !== 'Text' && native.structureClassName === TEXT_CLASS)
      return [native.code, { kind: 'alias', target: TEXT }];
    return [
      native.code,
      native.schema['properties']
        ? { kind: 'struct', closed: false, fields: schemaFields(native.schema) }
        : { kind: 'open' },
    ];
  }),
);

function scalarOrAny(type: string | undefined): FieldType {
  const kind = type ?? 'text';
  return SCALAR_KINDS.has(kind) ? ({ kind } as FieldType) : { kind: 'any' };
}

function conceptType(library: Library, ref: string | undefined): FieldType {
  const concept = ref === undefined ? undefined : library.concepts.get(ref);
  return concept ? { kind: 'concept', ref: concept.ref } : { kind: 'any' };
}

function fieldType(library: Library, field: ConceptField): FieldType {
  if (field.choices && field.choices.length > 0) return { kind: 'enum', choices: field.choices };
  switch (field.type) {
    case 'list':
      return {
        kind: 'list',
        item:
          field.item_type === 'concept' ? conceptType(library, field.item_concept_ref) : scalarOrAny(field.item_type),
      };
    case 'dict':
      return { kind: 'dict', value: scalarOrAny(field.value_type) };
    case 'concept':
      return conceptType(library, field.concept_ref);
    default:
      return scalarOrAny(field.type);
  }
}

function defaultOf(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * The content shape of a concept: a native's shape, a structure's fields (a closed struct), or an alias of its parent
 * (of Text when it refines nothing).
 * @param library - the library the concept's references resolve in
 * @param concept - a concept of the library
 */
export function shapeOf(library: Library, concept: Concept): TypedShape {
  if (concept.isNative) return NATIVE_SHAPES.get(concept.code) ?? { kind: 'open' };
  if (concept.structure !== null) {
    const fields = Object.entries(concept.structure).map(([name, field]): TypedField => {
      const typed: TypedField = {
        name,
        description: field.description,
        required: field.required,
        type: fieldType(library, field),
      };
      if (field.default_value !== undefined) typed.default = defaultOf(field.default_value);
      return typed;
    });
    return { kind: 'struct', fields, closed: true };
  }
  const parent = concept.refines === null ? undefined : library.concepts.get(concept.refines);
  return { kind: 'alias', target: parent ? parent.ref : TEXT };
}

function typeRefs(type: FieldType): string[] {
  if (type.kind === 'concept') return [type.ref];
  if (type.kind === 'list') return typeRefs(type.item);
  if (type.kind === 'dict') return typeRefs(type.value);
  if (type.kind === 'object') return type.fields.flatMap((field) => typeRefs(field.type));
  return [];
}

/**
 * The concept refs a shape refers to: an alias's target, the concepts its fields (their items and values included)
 * name.
 * @param shape - a concept's shape
 */
export function dependencies(shape: TypedShape): string[] {
  if (shape.kind === 'alias') return [shape.target];
  if (shape.kind === 'struct') return shape.fields.flatMap((field) => typeRefs(field.type));
  return [];
}
