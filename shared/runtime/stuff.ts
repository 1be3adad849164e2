/**
 * Stuff: one named piece of content in the working memory, typed by a concept (RUNTIME.md §1.4, §7.1).
 *
 * Content is plain JSON. A single item is one object (`{text: "…"}` for Text); a list is `{items: [...]}` whose
 * concept is the item concept (multiplicity is carried by the content, not the concept).
 */
import type { Concept } from '../mthds/index.js';

/** One content item: the JSON dump of a concept's content. */
export type ItemContent = Record<string, unknown>;

/** Content of a stuff: one item or a list of items. */
export type StuffContent = { kind: 'item'; item: ItemContent } | { kind: 'list'; items: ItemContent[] };

/** A stuff in the working memory. */
export interface Stuff {
  stuffCode: string;
  stuffName: string | null;
  concept: Concept;
  content: StuffContent;
}

/** The concept as the wire shows it inside a stuff (RUNTIME.md §7.1). */
export interface ConceptWire {
  code: string;
  domain_code: string;
  description: string;
  structure_class_name: string;
  refines: string | null;
}

/** A stuff on the wire. */
export interface StuffWire {
  stuff_code: string;
  stuff_name: string | null;
  concept: ConceptWire;
  content: ItemContent | { items: ItemContent[] };
}

/**
 * Serialise a stuff for `pipe_output.working_memory.root`.
 * @param stuff - the stuff
 */
export function stuffToWire(stuff: Stuff): StuffWire {
  return {
    stuff_code: stuff.stuffCode,
    stuff_name: stuff.stuffName,
    concept: conceptToWire(stuff.concept),
    content: stuff.content.kind === 'item' ? stuff.content.item : { items: stuff.content.items },
  };
}

/**
 * The wire form of a concept.
 * @param concept - a library concept
 */
export function conceptToWire(concept: Concept): ConceptWire {
  return {
    code: concept.code,
    domain_code: concept.domain_code,
    description: concept.description,
    structure_class_name: concept.structure_class_name,
    refines: concept.refines,
  };
}

/**
 * The default stuff name for an output of a concept: snake_case of its code (`ProductReview` → `product_review`).
 * @param conceptCode - a PascalCase concept code
 * @see RUNTIME.md §1.4 `make_stuff`
 */
export function defaultStuffName(conceptCode: string): string {
  return conceptCode
    .replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_')
    .replace(/(?<=[A-Z])(?=[A-Z][a-z])/g, '_')
    .toLowerCase();
}
