/**
 * Concepts and pipes as the library holds them: names qualified, structure normalised, references parsed.
 */
import type { PipeBlueprint, PipeType } from '../parse/pipe-blueprints.js';
import type { Multiplicity, Presence } from '../references.js';

/** A structure field, normalised (docs/concepts.md#structure-fields): refs qualified, `required` defaulted to false. */
export interface ConceptField {
  /** Absent for an enum field (choices only). */
  type?: 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'time' | 'list' | 'dict' | 'concept';
  description: string;
  required: boolean;
  choices?: string[];
  item_type?: string;
  /** Qualified ref of list items when `item_type = "concept"`. */
  item_concept_ref?: string;
  /** Qualified ref when `type = "concept"`. */
  concept_ref?: string;
  key_type?: string;
  value_type?: string;
  default_value?: unknown;
}

/** A concept of the library (natives included). */
export interface Concept {
  /** `domain.Code`; natives are `native.Text` etc. */
  ref: string;
  code: string;
  domain_code: string;
  description: string;
  /** Qualified ref of the parent concept, or null. */
  refines: string | null;
  /** The concept's own inline structure, or null. */
  structure: Record<string, ConceptField> | null;
  /** docs/runtime.md#stuffs-on-the-wire rule. */
  structure_class_name: string;
  isNative: boolean;
}

/** A declared input of a pipe. */
export interface PipeIO {
  name: string;
  /** Qualified concept ref (cross-package refs kept as written). */
  conceptRef: string;
  multiplicity: Multiplicity;
  /** As written without its presence marker, e.g. `Document[]`. */
  raw: string;
  /**
   * The slot's presence marker (docs/language.md#optionality-presence-markers-and-absences): `Text` plain, `Text?`
   * optional, `Text!` force.
   */
  presence: Presence;
}

/** A pipe of the library. */
export interface Pipe {
  /** `domain.pipe_code`. */
  ref: string;
  code: string;
  domain_code: string;
  type: PipeType;
  description: string;
  /** In authored order. */
  inputs: PipeIO[];
  /** `raw` is the spec without its marker; `presence` is `optional` for `X?` (an output never forces). */
  output: { conceptRef: string; multiplicity: Multiplicity; raw: string; presence: Presence };
  /** As written, typed by `type`. */
  blueprint: PipeBlueprint;
  /** The logical file name of the declaring bundle, or null. */
  source: string | null;
}

/** A domain: merged header facts of the bundles declaring it (first write wins). */
export interface Domain {
  code: string;
  description?: string;
  system_prompt?: string;
  main_pipe?: string;
}
