/**
 * Projecting a library's concepts into the type model ({@link buildTypeSet}): which concepts are emitted, in which
 * order, and under which names (spec §4.7; the model itself: `type-model.ts`).
 */
import type { Library } from '../mthds/index.js';
import { dependencies, shapeOf, TEXT } from './concept-shapes.js';
import type { TypedConcept, TypedShape, TypeSet } from './type-model.js';
import { assignNames } from './type-names.js';

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
