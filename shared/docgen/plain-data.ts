/**
 * Reading a PipeDocGen's plain input data (contents as JSON) for the engines: values at dotted paths, scalars as
 * text, and a value laid out as labelled lines (docs/document-generation.md).
 */

/** One line of a layout: its depth, an optional label, its text, and the scalar it shows (null for a heading). */
export interface LayoutLine {
  depth: number;
  label?: string;
  text: string;
  value: string | number | boolean | null;
}

/** Most lines a layout prints per input (the rest is left out). */
const MAX_LAYOUT_LINES = 20_000;

/**
 * A scalar as text: strings as they are, numbers and booleans in JSON, null as empty.
 * @param value - a JSON scalar
 */
export function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * `order_notes` → `Order notes`.
 * @param name - a snake_case or kebab-case name
 */
export function humanizeName(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Whether a content object is a text (`{text}` only). */
function isTextContent(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length === 1 && typeof value['text'] === 'string';
}

function pushLines(value: unknown, depth: number, label: string | undefined, lines: LayoutLine[]): void {
  if (lines.length >= MAX_LAYOUT_LINES) return;
  const labelled = label === undefined ? {} : { label };
  const inner = label === undefined ? depth : depth + 1;
  if (Array.isArray(value)) {
    if (label !== undefined) lines.push({ depth, label, text: '', value: null });
    for (const [index, item] of value.entries()) pushLines(item, inner, `${index + 1}.`, lines);
    return;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (isTextContent(record)) {
      lines.push({ depth, ...labelled, text: String(record['text']), value: String(record['text']) });
      return;
    }
    if (label !== undefined) lines.push({ depth, label, text: '', value: null });
    for (const [key, field] of Object.entries(record)) pushLines(field, inner, humanizeName(key), lines);
    return;
  }
  const scalar = typeof value === 'number' || typeof value === 'boolean' ? value : scalarText(value);
  lines.push({ depth, ...labelled, text: scalarText(value), value: scalar });
}

/**
 * A value as layout lines: a text content as its text, an object as one labelled line per field (nested fields
 * deeper), a list as numbered items. At most {@link MAX_LAYOUT_LINES} lines.
 * @param value - one input's data
 */
export function layoutLines(value: unknown): LayoutLine[] {
  const lines: LayoutLine[] = [];
  pushLines(value, 0, undefined, lines);
  return lines.slice(0, MAX_LAYOUT_LINES);
}

/**
 * The value at a dotted path of the data (`invoice.customer.name`); a content `{text}` at the end gives its text.
 * @param data - the inputs by name
 * @param path - the path, segments separated by `.`
 * @returns the value, or undefined when a segment is missing
 */
export function valueAtPath(data: Record<string, unknown>, path: string): unknown {
  let current: unknown = data;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  if (current !== null && typeof current === 'object' && !Array.isArray(current)) {
    const record = current as Record<string, unknown>;
    if (isTextContent(record)) return record['text'];
  }
  return current;
}
