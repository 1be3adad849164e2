/**
 * How far a concept's structure reaches (docs/limits.md#concept-structures): its depth, the longest chain of concepts
 * from it where each names the next through a structure field (`concept_ref`, `item_concept_ref`) or `refines`, and
 * its expanded size, the number of fields of its structure with every nested concept's fields counted where it is used.
 *
 * Every walk over concept structures (content schemas and their validators, mock values, forms, inputs templates,
 * typed projections) recurses once per level and expands a nested concept once per use, so both measures bound them;
 * the language limits {@link MAX_CONCEPT_DEPTH} and {@link MAX_CONCEPT_FIELDS} are checked by `S3-concept-extent`
 * before any of those walks runs. This measure itself walks iteratively (its own stack), so a chain of any length is
 * measured without recursion.
 */
import type { Concept } from './concept.js';

/** Deepest chain of concepts a structure may nest, the concept itself included: a language limit. */
export const MAX_CONCEPT_DEPTH = 32;

/** Most fields a concept's structure may expand to, nested concepts' fields counted once per use: a language limit. */
export const MAX_CONCEPT_FIELDS = 2000;

/** The extent of one declared concept. */
export interface ConceptExtent {
  /** Concepts on its longest chain, itself included (a concept that names no other concept is 1; a native is 1). */
  depth: number;
  /** Fields of its expanded structure (saturates at `Number.MAX_SAFE_INTEGER`). */
  fields: number;
  /** The first link of its longest chain: the key that names the next concept (`structure.<field>…` or `refines`). */
  deepest?: { key: string; ref: string };
}

/** The concepts a structure can reach: declared ones by qualified ref (natives and unresolved refs are leaves). */
export interface ConceptGraph {
  readonly concepts: ReadonlyMap<string, Concept>;
}

/** One edge of the walk: the key inside the concept table, the concept it names, and whether it adds fields. */
interface Link {
  key: string;
  ref: string;
  /** Whether the named concept's fields count into this concept's (a field does, `refines` only when no structure). */
  expands: boolean;
}

function linksOf(concept: Concept): Link[] {
  const links: Link[] = [];
  if (concept.refines !== null)
    links.push({ key: 'refines', ref: concept.refines, expands: concept.structure === null });
  for (const [name, field] of Object.entries(concept.structure ?? {})) {
    if (field.concept_ref !== undefined)
      links.push({ key: `structure.${name}.concept_ref`, ref: field.concept_ref, expands: true });
    if (field.item_concept_ref !== undefined)
      links.push({ key: `structure.${name}.item_concept_ref`, ref: field.item_concept_ref, expands: true });
  }
  return links;
}

const saturated = (value: number) => Math.min(value, Number.MAX_SAFE_INTEGER);

/**
 * The extent of every declared concept of a library, in one iterative depth-first walk (linear in concepts and
 * fields). A link back to a concept still being measured (a cycle, which `S5-structure-cycles` reports) counts as a
 * leaf, so a cycle longer than {@link MAX_CONCEPT_DEPTH} is measured as a chain that deep.
 * @param graph - the library (its concepts by qualified ref)
 * @returns the extent of each declared (non-native) concept, by qualified ref
 */
export function conceptExtents(graph: ConceptGraph): Map<string, ConceptExtent> {
  const extents = new Map<string, ConceptExtent>();
  const open = new Set<string>();
  const declared = (ref: string) => {
    const concept = graph.concepts.get(ref);
    return concept !== undefined && !concept.isNative ? concept : undefined;
  };
  const finish = (concept: Concept, links: readonly Link[]) => {
    let depth = 1;
    let fields = Object.keys(concept.structure ?? {}).length;
    let deepest: ConceptExtent['deepest'];
    for (const link of links) {
      const target = graph.concepts.get(link.ref);
      const inner = extents.get(link.ref);
      const reach = inner ? inner.depth + 1 : target ? 2 : 1;
      if (reach > depth) {
        depth = reach;
        deepest = { key: link.key, ref: link.ref };
      }
      if (link.expands && inner) fields = saturated(fields + inner.fields);
    }
    extents.set(concept.ref, deepest ? { depth, fields, deepest } : { depth, fields });
  };
  for (const root of graph.concepts.values()) {
    if (root.isNative || extents.has(root.ref)) continue;
    const stack = [{ concept: root, links: linksOf(root), next: 0 }];
    open.add(root.ref);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const link = frame.links[frame.next];
      if (link === undefined) {
        finish(frame.concept, frame.links);
        open.delete(frame.concept.ref);
        stack.pop();
        continue;
      }
      frame.next += 1;
      const child = declared(link.ref);
      if (child && !extents.has(child.ref) && !open.has(child.ref)) {
        open.add(child.ref);
        stack.push({ concept: child, links: linksOf(child), next: 0 });
      }
    }
  }
  return extents;
}
