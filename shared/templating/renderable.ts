/**
 * Content objects in a render context: their `toString()` is the plain rendering (what `{{ x }}` prints) and
 * `renderAs(format)` serves the `format` filter (docs/template-rendering.md#the-format-filter,
 * docs/template-rendering.md#plain-rendering).
 */

/** Text formats of the `format` filter. */
export type TextFormat = 'plain' | 'markdown' | 'html' | 'json';

/** A value that knows how to render itself. */
export interface Renderable {
  renderAs(format: TextFormat): string;
  toString(): string;
}

/**
 * True for values that implement {@link Renderable}.
 * @param value - anything
 */
export function isRenderable(value: unknown): value is Renderable {
  return value !== null && typeof value === 'object' && typeof (value as Partial<Renderable>).renderAs === 'function';
}
