/**
 * Binding paths of PipeSequence binding steps and dotted `batch_over` (docs/data-flow.md#binding-steps, a newer
 * reference
 * feature): their syntax, and the concept and multiplicity a path yields, derived by walking the declared structures.
 *
 * Walk: a `concept` field continues into its `concept_ref`; a list of `item_concept_ref` continues into that concept,
 * crossing a list; `text` (or choices) gives Text, `number`/`integer` Number, `boolean` YesNo, `date`/`datetime` Date,
 * `time` Time, `dict` JSON, a list of scalars that native, crossing a list. Crossing any list, or starting from a list,
 * yields a flat list. Walking into a concept without structure, or naming an unknown field, is unresolved; so is a
 * native the library does not have.
 */
import type { Multiplicity } from '../references.js';
import type { Concept, ConceptField } from './concept.js';
import type { Library } from './library.js';

/** A binding path: a root name, then `.field` segments (each a letter, then letters, digits or `_`). */
const BINDING_PATH = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/;

/**
 * Whether a text is a well-formed binding path (no subscripts, expressions, whitespace or `_`-led segments).
 * @param path - the `from` of a binding step, or a dotted `batch_over`
 */
export function isBindingPath(path: string): boolean {
  return BINDING_PATH.test(path);
}

/**
 * The root name of a dotted path (`catalog.pages` → `catalog`).
 * @param path - a name or dotted path
 */
export function pathRoot(path: string): string {
  return path.split('.')[0] ?? path;
}

/** What a binding path yields, or why it does not resolve. */
export type BindingDerivation =
  | { ok: true; concept: Concept; multiplicity: Extract<Multiplicity, 'single' | 'variable'> }
  | { ok: false; segment: string; within: Concept; available: string[] };

const SCALAR_NATIVES: Record<string, string> = {
  text: 'native.Text',
  number: 'native.Number',
  integer: 'native.Number',
  boolean: 'native.YesNo',
  date: 'native.Date',
  datetime: 'native.Date',
  time: 'native.Time',
  dict: 'native.JSON',
};

/**
 * The structure fields of a concept: its own, else those of the nearest ancestor with a structure; null for none.
 * @param library - the library (refinements)
 * @param concept - any concept
 */
export function fieldsOf(library: Library, concept: Concept): Record<string, ConceptField> | null {
  return library.ancestry(concept).find((ancestor) => ancestor.structure !== null)?.structure ?? null;
}

/** The concept a field leads to, and whether it crosses a list; undefined when it leads nowhere known. */
function fieldTarget(library: Library, field: ConceptField): { ref: string; list: boolean } | undefined {
  const type = field.type ?? 'text';
  if (type === 'concept') return field.concept_ref === undefined ? undefined : { ref: field.concept_ref, list: false };
  if (type === 'list') {
    if (field.item_concept_ref !== undefined) return { ref: field.item_concept_ref, list: true };
    const item = SCALAR_NATIVES[field.item_type ?? 'text'];
    return item === undefined ? undefined : { ref: item, list: true };
  }
  const native = SCALAR_NATIVES[type];
  return native === undefined || library.findConcept(native) === undefined ? undefined : { ref: native, list: false };
}

/**
 * Derive what a binding path yields.
 * @param library - the library (structures, refinements)
 * @param root - the concept of the root value
 * @param rootMultiplicity - the root value's multiplicity
 * @param path - the dotted path, root included (a bare name yields the root's concept and list-ness)
 * @returns the concept and multiplicity (`variable` when the root is a list or a list is crossed), or the first
 *   segment that does not resolve, the concept it was looked up in and the fields available there
 */
export function deriveBinding(
  library: Library,
  root: Concept,
  rootMultiplicity: Multiplicity,
  path: string,
): BindingDerivation {
  let concept = root;
  let list = rootMultiplicity !== 'single';
  for (const segment of path.split('.').slice(1)) {
    const fields = fieldsOf(library, concept);
    const field = fields?.[segment];
    const target = field === undefined ? undefined : fieldTarget(library, field);
    const next = target === undefined ? undefined : library.findConcept(target.ref, concept.domain_code);
    if (!target || !next) return { ok: false, segment, within: concept, available: Object.keys(fields ?? {}) };
    concept = next;
    list ||= target.list;
  }
  return { ok: true, concept, multiplicity: list ? 'variable' : 'single' };
}
