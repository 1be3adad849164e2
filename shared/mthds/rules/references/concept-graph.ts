/**
 * The dependency graph of the loaded concepts: an edge from a concept to the parent it `refines` and to every concept
 * its structure fields name (`concept_ref`, `item_concept_ref`), and the cycles of that graph
 * (docs/concepts.md#structure-fields, docs/concepts.md#refinement-and-compatibility:
 * the reference loads concepts in topological order, so a cycle is an error).
 * @see docs/concepts.md#structure-fields, docs/concepts.md#refinement-and-compatibility, docs/rules.md#references-s5
 */
import type { Concept } from '../../library/concept.js';
import type { MthdsLibrary } from '../../library/mthds-library.js';

/** One edge of the concept graph. */
interface Edge {
  to: string;
  kind: 'refines' | 'field';
}

/** A cycle: the refs in order (the first is not repeated at the end) and the kinds of its edges. */
export interface ConceptCycle {
  refs: string[];
  kinds: ('refines' | 'field')[];
}

function edgesOf(concept: Concept): Edge[] {
  const edges: Edge[] = concept.refines === null ? [] : [{ to: concept.refines, kind: 'refines' }];
  for (const field of Object.values(concept.structure ?? {})) {
    if (field.concept_ref !== undefined) edges.push({ to: field.concept_ref, kind: 'field' });
    if (field.item_concept_ref !== undefined) edges.push({ to: field.item_concept_ref, kind: 'field' });
  }
  return edges;
}

/**
 * Every elementary cycle found by a depth-first walk of the declared concepts, each reported once.
 * @param library - the library
 */
export function conceptCycles(library: MthdsLibrary): ConceptCycle[] {
  const cycles: ConceptCycle[] = [];
  const seenCycles = new Set<string>();
  const done = new Set<string>();
  const stack: { ref: string; kind: 'refines' | 'field' | undefined }[] = [];
  const visit = (ref: string, kind: 'refines' | 'field' | undefined): void => {
    const onStack = stack.findIndex((entry) => entry.ref === ref);
    if (onStack >= 0) {
      const members = stack.slice(onStack);
      const kinds = [...members.slice(1).map((entry) => entry.kind ?? 'field'), kind ?? 'field'];
      const key = [...members.map((entry) => entry.ref)].sort().join('|');
      if (!seenCycles.has(key)) {
        seenCycles.add(key);
        cycles.push({ refs: members.map((entry) => entry.ref), kinds });
      }
      return;
    }
    const concept = library.concepts.get(ref);
    if (done.has(ref) || !concept || concept.isNative) return;
    stack.push({ ref, kind });
    for (const edge of edgesOf(concept)) visit(edge.to, edge.kind);
    stack.pop();
    done.add(ref);
  };
  for (const concept of library.concepts.values()) visit(concept.ref, undefined);
  return cycles;
}
