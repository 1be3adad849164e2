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
 *
 * This module holds the model's types; the projection is built by `buildTypeSet` (`type-set.ts`), from the shapes
 * of `concept-shapes.ts` and the names of `type-names.ts`.
 */

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
