/**
 * Markdown to HTML for templates (docs/concepts.md#native-concepts, docs/templates.md#filters): the `markdown` filter
 * of html templates and the HTML
 * rendering of `Markdown` content. Raw HTML in the source is shown as text, never passed through; a link becomes an
 * anchor only when its URL has a scheme (`https:`, `mailto:`…), and never for `javascript:`, `vbscript:`, `file:` or
 * non-image `data:` URLs (markdown-it's own refusal).
 */
import MarkdownIt from 'markdown-it';

const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

const converter = new MarkdownIt({ html: false, linkify: false, typographer: false });
const defaultValidateLink = converter.validateLink.bind(converter);
converter.validateLink = (url: string) => HAS_SCHEME.test(url.trim()) && defaultValidateLink(url);

/**
 * Convert Markdown to HTML.
 * @param source - Markdown text (untrusted)
 * @returns HTML safe to embed in an HTML document: every raw tag of the source escaped
 */
export function markdownToHtml(source: string): string {
  return converter.render(source);
}

/**
 * The key under which a template value carries its HTML rendering: an autoescaping (html) template prints such a
 * value as that HTML, unescaped; other templates print its plain rendering. Templates cannot name a symbol.
 */
export const HTML_RENDERING: unique symbol = Symbol.for('mthds.htmlRendering');

/** A value that renders itself as HTML in html templates. */
export interface HtmlRenderable {
  [HTML_RENDERING](): string;
}

/**
 * Whether a value carries an HTML rendering.
 * @param value - anything a template prints
 */
export function hasHtmlRendering(value: unknown): value is HtmlRenderable {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Partial<HtmlRenderable>)[HTML_RENDERING] === 'function'
  );
}

/**
 * Give a template value an HTML rendering (non-enumerable).
 * @param target - the value (an artefact object)
 * @param render - builds the HTML; it must escape what the value's author wrote
 */
export function defineHtmlRendering(target: object, render: () => string): void {
  Object.defineProperty(target, HTML_RENDERING, { value: render, enumerable: false, configurable: true });
}
