/**
 * Stuff: one named piece of content in the working memory, typed by a concept (docs/runtime.md#working-memory,
 * docs/runtime.md#stuffs-on-the-wire).
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

/**
 * The default stuff name for an output of a concept: snake_case of its code (`ProductReview` → `product_review`).
 * @param conceptCode - a PascalCase concept code
 * @see docs/runtime.md#working-memory `make_stuff`
 */
export function defaultStuffName(conceptCode: string): string {
  return conceptCode
    .replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_')
    .replace(/(?<=[A-Z])(?=[A-Z][a-z])/g, '_')
    .toLowerCase();
}
