/**
 * The `concepts` member of a crate (docs/crate.md#crate-shape; docs/concepts.md#refinement-and-compatibility): declared
 * concepts with refinement
 * flattened into the effective structure, and every referenced native materialized.
 */
import type { Concept, ConceptField } from '../library/concept.js';
import type { Library, LoadedBundle } from '../library/library.js';
import { NATIVE_CONCEPTS, NATIVE_DOMAIN } from '../library/natives.js';
import type { ConceptBlueprint, ConceptFieldBlueprint } from '../parse/concept-blueprint.js';
import { stripMultiplicity } from '../references.js';
import { compact } from './compact.js';
import type { CrateConcept, CrateField } from './crate.js';

/** The bundle declaring a concept (the first one, as the library keeps the first declaration). */
function declaringBundle(library: Library, concept: Concept): LoadedBundle | undefined {
  return library.bundles.find(
    ({ blueprint }) => blueprint.domain === concept.domain_code && Object.hasOwn(blueprint.concept, concept.code),
  );
}

function writtenConcept(library: Library, concept: Concept): ConceptBlueprint | string | undefined {
  return declaringBundle(library, concept)?.blueprint.concept[concept.code];
}

/**
 * The `source` label of the file declaring a concept.
 * @param library - the library the concept belongs to
 * @param concept - a declared concept
 * @returns the label, or null for a native or a file sent without one
 */
export function conceptSource(library: Library, concept: Concept): string | null {
  return declaringBundle(library, concept)?.source ?? null;
}

/** A cross-package reference as written, or the library's qualified one. */
function crossPackageOr(written: string | undefined, qualified: string): string {
  return written?.includes('->') ? written.trim() : qualified;
}

function crateField(field: ConceptField, written: string | ConceptFieldBlueprint | undefined): CrateField {
  const table = typeof written === 'object' ? written : undefined;
  return compact({
    description: field.description,
    type: field.type,
    key_type: field.key_type,
    value_type: field.value_type,
    item_type: field.item_type,
    concept_ref: field.concept_ref === undefined ? undefined : crossPackageOr(table?.concept_ref, field.concept_ref),
    item_concept_ref:
      field.item_concept_ref === undefined
        ? undefined
        : crossPackageOr(table?.item_concept_ref, field.item_concept_ref),
    choices: field.choices,
    default_value: field.default_value,
    required: field.required,
  });
}

function crateStructure(
  library: Library,
  owner: Concept,
  structure: Record<string, ConceptField>,
): Record<string, CrateField> {
  const written = writtenConcept(library, owner);
  const writtenFields = typeof written === 'object' && typeof written.structure === 'object' ? written.structure : {};
  return Object.fromEntries(
    Object.entries(structure).map(([name, field]) => [name, crateField(field, writtenFields[name])]),
  );
}

/** The refinement chain of a concept, itself first, stopping before a loop or a parent that is not loaded. */
function ancestry(library: Library, concept: Concept): Concept[] {
  const chain: Concept[] = [];
  let current: Concept | undefined = concept;
  while (current && !chain.includes(current)) {
    chain.push(current);
    current = current.refines === null ? undefined : library.concepts.get(current.refines);
  }
  return chain;
}

/**
 * The crate entry of a declared concept: its description, the structure of the first concept of its refinement chain
 * that has one, and `refines` only when the chain ends at a native (the native's ref) or at a concept that is not
 * loaded (the reference as written, e.g. a cross-package one).
 * @param library - the library the concept belongs to
 * @param concept - a declared (non-native) concept
 * @see docs/crate.md#crate-shape, docs/concepts.md#refinement-and-compatibility
 */
export function crateConcept(library: Library, concept: Concept): CrateConcept {
  const chain = ancestry(library, concept);
  const shaped = chain.find((ancestor) => ancestor.structure !== null);
  if (shaped?.structure)
    return { description: concept.description, structure: crateStructure(library, shaped, shaped.structure) };
  const root = chain[chain.length - 1] ?? concept;
  if (root !== concept && root.isNative) return { description: concept.description, refines: root.ref };
  if (root.refines !== null && !library.concepts.has(root.refines)) {
    const written = writtenConcept(library, root);
    return {
      description: concept.description,
      refines: crossPackageOr(typeof written === 'object' ? written.refines : undefined, root.refines),
    };
  }
  return { description: concept.description };
}

/**
 * The crate entry of a native concept.
 * @param code - a native code, e.g. `Text`
 * @returns `{description}`, or undefined when the code is not a native
 */
export function crateNative(code: string): CrateConcept | undefined {
  const native = NATIVE_CONCEPTS.get(code);
  return native && { description: native.description };
}

/**
 * The native codes a set of concept refs names (`native.Page[]` → `Page`).
 * @param refs - qualified concept refs, multiplicity allowed
 */
export function nativeCodesOf(refs: Iterable<string>): Set<string> {
  const prefix = `${NATIVE_DOMAIN}.`;
  return new Set(
    [...refs]
      .map(stripMultiplicity)
      .filter((ref) => ref.startsWith(prefix))
      .map((ref) => ref.slice(prefix.length)),
  );
}
