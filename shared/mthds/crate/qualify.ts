/**
 * Qualifying the references a crate carries (docs/crate.md#crate-shape; docs/namespaces.md#resolution-order): each
 * resolves through the
 * library from the domain it is written in; a cross-package `x->…` ref and the special outcomes stay as written.
 */
import type { Library } from '../library/library.js';
import { SPECIAL_OUTCOMES, splitPresence, stripMultiplicity } from '../references.js';

/**
 * A concept reference, qualified, with its multiplicity suffix and presence marker kept (`Page[]` → `native.Page[]`,
 * `Text?` → `native.Text?`).
 * @param library - the library the reference resolves in
 * @param ref - as written
 * @param fromDomain - the domain it is written in
 */
export function qualifyConceptRef(library: Library, ref: string, fromDomain: string): string {
  const { ref: written, marker = '' } = splitPresence(ref);
  if (written.includes('->')) return `${written}${marker}`;
  const bare = stripMultiplicity(written);
  return `${library.findConcept(written, fromDomain)?.ref ?? bare}${written.slice(bare.length)}${marker}`;
}

/**
 * A pipe reference, qualified (`summarize` → `legal.summarize`).
 * @param library - the library the reference resolves in
 * @param ref - as written
 * @param fromDomain - the domain it is written in
 */
export function qualifyPipeRef(library: Library, ref: string, fromDomain: string): string {
  if (SPECIAL_OUTCOMES.has(ref) || ref.includes('->')) return ref;
  return library.findPipe(ref, fromDomain)?.ref ?? ref;
}
