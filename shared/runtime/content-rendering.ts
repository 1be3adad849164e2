/**
 * Plain rendering of content, as `$x` / `{{ x }}` print it in templates (docs/template-rendering.md#plain-rendering; a
 * native Date or Time
 * prints as ISO 8601 at the precision it states: `2025-01-06`, `2025-01-06T09:30:00+02:00`, `09:30:00`;
 * docs/concepts.md#native-concepts; a member of a native Composite that is a Number, Date or Time content prints as
 * that native),
 * and the template
 * artefacts that carry it: read-only copies of content whose `toString()` is the plain rendering and whose
 * attributes are the content fields. A `Markdown` item prints its source, and in html templates its source converted
 * to HTML (docs/concepts.md#native-concepts).
 */
import type { Concept, Library } from '../mthds/index.js';
import { defineHtmlRendering, markdownToHtml } from '../templating/index.js';
import type { PromptMedia } from './prompt-media.js';
import type { ItemContent, StuffContent } from './stuff.js';

/** Text formats a template's `format` filter may ask for. */
export type TextFormat = 'plain' | 'markdown' | 'html' | 'json';

/** Longest URL printed for an image (keeps data URLs out of prompts). */
const MAX_IMAGE_URL_CHARS = 500;

/**
 * Python `str()` of a scalar, so prompts read as the reference renders them (`True`, `False`, `None`).
 * @param value - a JSON scalar
 */
export function pythonScalar(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

/**
 * Markdown conversion of a JSON value: keys become headings (`# key: value` for one-line scalars), lists become
 * `- item` lines, nested objects get deeper headings.
 * @param value - any JSON value
 * @param level - heading level of the top keys (1-based)
 */
export function markdownOf(value: unknown, level = 1): string {
  if (Array.isArray(value)) {
    return value
      .map((item, index) =>
        item !== null && typeof item === 'object'
          ? `- item #${index + 1}:\n${markdownOf(item, level + 1)}`
          : `- ${pythonScalar(item)}`,
      )
      .join('\n');
  }
  if (value !== null && typeof value === 'object') {
    const heading = '#'.repeat(Math.min(level, 6));
    return Object.entries(value as Record<string, unknown>)
      .map(([key, field]) => {
        const isScalar = field === null || typeof field !== 'object';
        if (isScalar && !pythonScalar(field).includes('\n')) return `${heading} ${key}: ${pythonScalar(field)}`;
        return `${heading} ${key}\n${isScalar ? pythonScalar(field) : markdownOf(field, level + 1)}`;
      })
      .join('\n');
  }
  return pythonScalar(value);
}

/**
 * The native concept a concept is shaped like: itself when native, else the first native ancestor, else null
 * (a structured or description-only concept).
 * @param library - the library the concept belongs to
 * @param concept - any concept
 */
export function nativeRootOf(library: Library, concept: Concept): string | null {
  let current: Concept | undefined = concept;
  const seen = new Set<string>();
  while (current && !seen.has(current.ref)) {
    if (current.isNative) return current.code;
    seen.add(current.ref);
    current = current.refines ? library.concepts.get(current.refines) : undefined;
  }
  return library.isTextLike(concept) ? 'Text' : null;
}

function plainItem(nativeRoot: string | null, item: ItemContent, media?: PromptMedia): string {
  if (media && nativeRoot === 'Image') return media.placeholder('image', item);
  if (media && nativeRoot === 'Document') return media.placeholder('document', item);
  switch (nativeRoot) {
    case 'Text':
    case 'Markdown':
    case 'ImgGenPrompt':
      return String(item['text'] ?? '');
    case 'Number':
      return pythonScalar(item['number']);
    case 'Image':
      return String(item['url'] ?? '').slice(0, MAX_IMAGE_URL_CHARS);
    case 'Document': {
      const url = String(item['url'] ?? '');
      if (typeof item['title'] !== 'string') return url;
      const snippet = typeof item['snippet'] === 'string' ? `\n  ${item['snippet']}` : '';
      return `- ${item['title']}: ${url}${snippet}`;
    }
    case 'Html':
      return String(item['inner_html'] ?? '');
    case 'TextAndImages': {
      const text = item['text'];
      return text !== null && typeof text === 'object' ? String((text as ItemContent)['text'] ?? '') : '';
    }
    case 'JSON':
      return markdownOf(item['json_obj']);
    case 'Date':
      return typeof item['time'] === 'string' ? `${String(item['date'])}T${item['time']}` : String(item['date'] ?? '');
    case 'Time':
      return String(item['time'] ?? '');
    case 'YesNo':
      return item['yes_no'] === true ? 'yes' : 'no';
    case 'Choice':
      return String(item['choice'] ?? '');
    case 'Rating':
      return typeof item['label'] === 'string' ? item['label'] : pythonScalar(item['level']);
    default:
      return markdownOf(item);
  }
}

function formatted(plain: string, json: unknown, format: TextFormat): string {
  if (format === 'json') return JSON.stringify(json);
  if (format === 'html') return plain.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return plain;
}

function defineRendering(target: object, plain: () => string, json: unknown): void {
  Object.defineProperties(target, {
    toString: { value: plain, enumerable: false, configurable: true },
    renderAs: {
      value: (format: TextFormat) => formatted(plain(), json, format),
      enumerable: false,
      configurable: true,
    },
  });
}

function nestedArtefact(value: unknown): unknown {
  if (Array.isArray(value)) {
    const list = value.map(nestedArtefact);
    defineRendering(list, () => markdownOf(value), value);
    return list;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const copy = Object.fromEntries(Object.entries(record).map(([key, field]) => [key, nestedArtefact(field)]));
    const keys = Object.keys(record);
    const onlyText = keys.length === 1 && typeof record['text'] === 'string';
    defineRendering(copy, () => (onlyText ? String(record['text']) : markdownOf(record)), value);
    return copy;
  }
  return value;
}

/** The verdict natives, whose JSON rendering leaves absent (null) members out (docs/language.md#pipejudge). */
const VERDICT_NATIVES: ReadonlySet<string> = new Set(['YesNo', 'Choice', 'Rating']);

function jsonOfItem(nativeRoot: string | null, item: ItemContent): unknown {
  if (nativeRoot === null || !VERDICT_NATIVES.has(nativeRoot)) return item;
  return Object.fromEntries(Object.entries(item).filter(([, value]) => value !== null && value !== undefined));
}

/** The native a Composite member's content is shaped like, read from its keys (its concept is not kept). */
function compositeMemberRoot(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const keys = Object.keys(value).sort().join(',');
  if (keys === 'number') return 'Number';
  if (keys === 'date' || keys === 'date,time') return 'Date';
  if (keys === 'time') return 'Time';
  return null;
}

function itemArtefact(nativeRoot: string | null, item: ItemContent, media?: PromptMedia): Record<string, unknown> {
  const artefact = nestedArtefact(item) as Record<string, unknown>;
  if (nativeRoot === 'Composite')
    for (const [key, value] of Object.entries(item)) {
      const root = compositeMemberRoot(value);
      if (root !== null) defineRendering(artefact[key] as object, () => plainItem(root, value as ItemContent), value);
    }
  defineRendering(artefact, () => plainItem(nativeRoot, item, media), jsonOfItem(nativeRoot, item));
  if (nativeRoot === 'Markdown') defineHtmlRendering(artefact, () => markdownToHtml(String(item['text'] ?? '')));
  return artefact;
}

/**
 * The template artefact of content: an item artefact, or for a list an array of item artefacts that also exposes
 * `items` (so `x.items|length` works) and prints as bullet lines (` • item`, or ` • item #i:` + markdown).
 * @param nativeRoot - the native concept the content is shaped like (see {@link nativeRootOf}), or null
 * @param content - the stuff's content
 * @param media - in a PipeLLM prompt: Images and Documents render as `[Image N]` / `[Document N]` and are registered
 *   as attachments (a list of images renders as `[Image 1], [Image 2]`, of documents one per line)
 * @see docs/runtime.md#template-context, docs/runtime.md#images-and-documents,
 * docs/template-rendering.md#plain-rendering
 */
export function contentArtefact(nativeRoot: string | null, content: StuffContent, media?: PromptMedia): unknown {
  if (content.kind === 'item') return itemArtefact(nativeRoot, content.item, media);
  const items = content.items;
  const list = items.map((item) => itemArtefact(nativeRoot, item, media));
  const textual = nativeRoot === 'Text' || nativeRoot === 'Markdown' || nativeRoot === 'ImgGenPrompt';
  const separator = nativeRoot === 'Image' ? ', ' : '\n';
  const plain = () =>
    media && (nativeRoot === 'Image' || nativeRoot === 'Document')
      ? items.map((item) => plainItem(nativeRoot, item, media)).join(separator)
      : items
          .map((item, index) =>
            textual ? ` • ${plainItem(nativeRoot, item)}` : ` • item #${index + 1}:\n${plainItem(nativeRoot, item)}`,
          )
          .join('\n');
  defineRendering(list, plain, items);
  Object.defineProperty(list, 'items', { value: list, enumerable: false });
  return list;
}
