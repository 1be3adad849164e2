/**
 * Where each value of a TOML document was written: a map from the JSON pointer of a value (the `instancePath` of a
 * JSON-schema error, e.g. `/pipe/summarize/type`) to the spans of its key and of its value in the text.
 *
 * @see docs/api.md#post-v1lint (schema diagnostics carry the range of the offending key or value)
 */
import type { AST } from 'toml-eslint-parser';

/** A span as JavaScript string indices `[start, end)`. */
export type Span = readonly [number, number];

/** Where one value was written. */
export interface WrittenAt {
  /** The key naming the value (the last segment of a dotted key or of a table header); absent for array items. */
  key?: Span;
  /** The value itself; for a `[table]`, its header. */
  value: Span;
}

/**
 * Encode path segments as a JSON pointer (RFC 6901, as ajv writes `instancePath`).
 * @param segments - keys and array indices from the document root
 * @returns `''` for the root, else `/a/b/0`
 */
export function jsonPointer(segments: readonly (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

function keyName(node: AST.TOMLBare | AST.TOMLQuoted): string {
  return node.type === 'TOMLBare' ? node.name : node.value;
}

class KeyPathIndex {
  readonly written = new Map<string, WrittenAt>();

  record(path: readonly (string | number)[], at: WrittenAt): void {
    const pointer = jsonPointer(path);
    if (!this.written.has(pointer)) this.written.set(pointer, at);
  }

  /** Records each prefix of a dotted key under `base`, then the value under the full key. */
  keyValue(base: readonly (string | number)[], entry: AST.TOMLKeyValue): void {
    const path = [...base];
    entry.key.keys.forEach((segment, index) => {
      path.push(keyName(segment));
      const last = index === entry.key.keys.length - 1;
      this.record(path, { key: segment.range, value: last ? entry.value.range : segment.range });
    });
    this.content(path, entry.value);
  }

  content(path: readonly (string | number)[], node: AST.TOMLContentNode): void {
    if (node.type === 'TOMLInlineTable') for (const entry of node.body) this.keyValue(path, entry);
    if (node.type === 'TOMLArray') {
      node.elements.forEach((element, index) => {
        this.record([...path, index], { value: element.range });
        this.content([...path, index], element);
      });
    }
  }

  table(table: AST.TOMLTable): void {
    const segments = table.key.keys;
    const resolved = table.resolvedKey;
    let named = 0;
    resolved.forEach((segment, index) => {
      if (typeof segment === 'number') return;
      const keyNode = segments[Math.min(named, segments.length - 1)];
      named += 1;
      if (keyNode) this.record(resolved.slice(0, index + 1), { key: keyNode.range, value: table.key.range });
    });
    if (table.kind === 'array') this.record(resolved, { value: table.key.range });
    for (const entry of table.body) this.keyValue(resolved, entry);
  }
}

/**
 * Index every key and value of a parsed document by its JSON pointer. The first place a path is written wins (an
 * implicit table such as `pipe` in `[pipe.a]` points at the first header that names it).
 * @param program - the AST of `toml-eslint-parser`
 * @returns pointer → spans
 */
export function keyPaths(program: AST.TOMLProgram): ReadonlyMap<string, WrittenAt> {
  const index = new KeyPathIndex();
  for (const item of program.body[0].body) {
    if (item.type === 'TOMLKeyValue') index.keyValue([], item);
    else index.table(item);
  }
  return index.written;
}
