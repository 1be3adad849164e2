/**
 * The language-neutral type model the `types` projections are emitted from (spec §4.7;
 * docs/concepts.md#structure-fields, docs/concepts.md#native-concepts, docs/concepts.md#refinement-and-compatibility;
 * docs/runtime.md#native-contents): one {@link TypedConcept} per emitted concept, in dependency order, each with a
 * unique type name.
 *
 * Which concepts: every concept declared by the library, plus the natives that a declared concept or a pipe's input or
 * output refers to (transitively through native shapes). Natives take their runtime class names (`TextContent`, …)
 * and the shapes of their content schemas in `library/natives.ts` (an inline object such as `Image.size` is an
 * `object` field type); `ImgGenPrompt` is Text-shaped and shares `TextContent`.
 *
 * Shapes: a concept with a structure is a `struct` of its fields; a concept that refines another is an `alias` of its
 * parent (a refinement of `Text` is Text-shaped); a description-only concept is an alias of `Text` (it behaves as
 * text, docs/runtime.md#stuffs-on-the-wire); `Dynamic` and `Anything` are `open` objects. Field types follow the
 * content schema of
 * `library/content-schema.ts`: a date is its ISO string, a list without `item_type` holds texts, a dict has string
 * keys.
 */
import { type Concept, type ConceptField, type Library, NATIVE_CONCEPTS } from '../mthds/index.js';

/** The type of a field (or of a list item / dict value). */
export type FieldType =
  | { kind: 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'time' | 'any' }
  | { kind: 'enum'; choices: readonly string[] }
  | { kind: 'list'; item: FieldType }
  | { kind: 'dict'; value: FieldType }
  | { kind: 'concept'; ref: string }
  /** An inline object of a native's content (`Image.size`); `name` is its field name in PascalCase (`Size`). */
  | { kind: 'object'; name: string; fields: TypedField[] };

/** One field of a struct, keyed by its wire name. */
export interface TypedField {
  /** The wire (JSON) name, as authored. */
  name: string;
  description: string;
  required: boolean;
  /** The authored `default_value` (dates as ISO strings), absent when none. */
  default?: unknown;
  type: FieldType;
}

/** The content shape of an emitted concept. */
export type TypedShape =
  | { kind: 'struct'; fields: TypedField[]; closed: boolean }
  | { kind: 'alias'; target: string }
  | { kind: 'open' };

/** One emitted concept. */
export interface TypedConcept {
  /** Qualified ref (`domain.Code`, `native.Text`). */
  ref: string;
  /** The emitted type / class name, unique in the artifact. */
  name: string;
  description: string;
  isNative: boolean;
  shape: TypedShape;
}

/** The concept set of a library, ready for the emitters. */
export interface TypeSet {
  /** In dependency order: a concept comes after its alias target and the concepts its fields refer to (cycles cut). */
  concepts: TypedConcept[];
  /**
   * The emitted name of a concept ref (natives through their runtime class, `ImgGenPrompt` → `TextContent`).
   * @throws Error when the ref names no emitted concept
   */
  nameOf(ref: string): string;
  /**
   * The emitted concept of a concept ref (`ImgGenPrompt` → `TextContent`).
   * @throws Error when the ref names no emitted concept
   */
  conceptOf(ref: string): TypedConcept;
}

const TEXT = 'native.Text';
const SCALAR_KINDS = new Set(['text', 'integer', 'number', 'boolean', 'date', 'datetime', 'time']);
/** Names the emitters import or define themselves; a concept with one of these codes is domain-qualified. */
const RESERVED_NAMES = new Set([
  'z',
  'BaseModel',
  'ConfigDict',
  'Field',
  'Any',
  'Dict',
  'List',
  'Literal',
  'Optional',
  'StructuredContent',
  'None',
  'True',
  'False',
]);

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

function shapeOf(library: Library, concept: Concept): TypedShape {
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

function dependencies(shape: TypedShape): string[] {
  if (shape.kind === 'alias') return [shape.target];
  if (shape.kind === 'struct') return shape.fields.flatMap((field) => typeRefs(field.type));
  return [];
}

function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/**
 * Emitted names: natives keep their runtime class name; a declared concept is its code, or `<Domain><Code>` when
 * another emitted concept shares the code or the code is a name the emitters reserve.
 */
function assignNames(library: Library, refs: readonly string[]): Map<string, string> {
  const concepts = refs.map((ref) => library.concepts.get(ref)!);
  const codeCounts = new Map<string, number>();
  for (const concept of concepts)
    if (!concept.isNative) codeCounts.set(concept.code, (codeCounts.get(concept.code) ?? 0) + 1);
  const nativeNames = new Set(
    concepts.filter((concept) => concept.isNative).map((concept) => concept.structure_class_name),
  );
  const names = new Map<string, string>();
  for (const concept of concepts) {
    if (concept.isNative) names.set(concept.ref, concept.structure_class_name);
    else {
      const clash =
        (codeCounts.get(concept.code) ?? 0) > 1 ||
        RESERVED_NAMES.has(concept.code) ||
        nativeNames.has(concept.code) ||
        concept.code.endsWith('Schema');
      names.set(concept.ref, clash ? `${pascal(concept.domain_code)}${concept.code}` : concept.code);
    }
  }
  return names;
}

/**
 * The refs the projection covers: every declared concept, and the natives reached from them and from pipe I/O.
 * `ImgGenPrompt` is folded into `Text`.
 */
function coveredRefs(library: Library): Set<string> {
  const covered = new Set<string>();
  const pending: string[] = [];
  const visit = (ref: string) => {
    const concept = library.concepts.get(ref);
    if (!concept || covered.has(concept.ref)) return;
    covered.add(concept.ref);
    pending.push(concept.ref);
  };
  for (const concept of library.concepts.values()) if (!concept.isNative) visit(concept.ref);
  for (const pipe of library.pipes.values()) {
    for (const ref of [...pipe.inputs.map((input) => input.conceptRef), pipe.output.conceptRef]) {
      const concept = library.findConcept(ref, pipe.domain_code);
      if (concept) visit(concept.ref);
    }
  }
  while (pending.length > 0) {
    const ref = pending.pop()!;
    for (const dependency of dependencies(shapeOf(library, library.concepts.get(ref)!))) visit(dependency);
  }
  covered.delete('native.ImgGenPrompt');
  return covered;
}

/**
 * Project a library's concepts into the type model.
 * @param library - a validated library
 * @returns the concepts in dependency order (natives in the order of `natives.ts` first, then declared concepts by
 *   qualified ref, each after its dependencies; a field-reference cycle is cut where it closes, an alias always comes
 *   after its target) and the name lookup
 * @see spec §4.7, docs/concepts.md#structure-fields, docs/concepts.md#native-concepts,
 * docs/concepts.md#refinement-and-compatibility, docs/runtime.md#native-contents
 */
export function buildTypeSet(library: Library): TypeSet {
  const covered = coveredRefs(library);
  const natives = [...library.concepts.values()]
    .filter((concept) => concept.isNative && covered.has(concept.ref))
    .map((concept) => concept.ref);
  const declared = [...covered].filter((ref) => !library.concepts.get(ref)!.isNative).sort();
  const names = assignNames(library, [...natives, ...declared]);
  const canonical = (ref: string) => (ref === 'native.ImgGenPrompt' ? TEXT : ref);
  const typed = new Map<string, TypedConcept>();
  for (const ref of [...natives, ...declared]) {
    const concept = library.concepts.get(ref)!;
    const shape = shapeOf(library, concept);
    const rewritten: TypedShape = shape.kind === 'alias' ? { kind: 'alias', target: canonical(shape.target) } : shape;
    typed.set(ref, {
      ref,
      name: names.get(ref)!,
      description: concept.description,
      isNative: concept.isNative,
      shape: rewritten,
    });
  }
  const ordered: TypedConcept[] = [];
  const visited = new Set<string>();
  const visit = (ref: string) => {
    if (visited.has(ref)) return;
    visited.add(ref);
    const concept = typed.get(ref)!;
    for (const dependency of dependencies(concept.shape).map(canonical)) if (typed.has(dependency)) visit(dependency);
    ordered.push(concept);
  };
  for (const ref of [...natives, ...declared]) visit(ref);
  const withBasesFirst: TypedConcept[] = [];
  const placed = new Set<string>();
  const place = (concept: TypedConcept) => {
    if (placed.has(concept.ref)) return;
    placed.add(concept.ref);
    const base = concept.shape.kind === 'alias' ? typed.get(concept.shape.target) : undefined;
    if (base) place(base);
    withBasesFirst.push(concept);
  };
  for (const concept of ordered) place(concept);
  return {
    concepts: withBasesFirst,
    nameOf(ref: string): string {
      const name = names.get(canonical(ref));
      if (name === undefined) throw new Error(`No emitted type for concept '${ref}'`);
      return name;
    },
    conceptOf(ref: string): TypedConcept {
      const concept = typed.get(canonical(ref));
      if (concept === undefined) throw new Error(`No emitted type for concept '${ref}'`);
      return concept;
    },
  };
}
