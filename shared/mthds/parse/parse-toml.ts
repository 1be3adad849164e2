/**
 * Stage S1 (docs/rules.md): `.mthds` text → TOML data. Duplicate keys and every other TOML error are syntax errors
 * with a 1-based line and column; so is a text nesting deeper than {@link MAX_TOML_DEPTH}, refused by a linear
 * pre-scan before smol-toml (or any code walking the data: the rules, `JSON.stringify`, the crate fingerprint) sees it.
 *
 * @see docs/bundle-format.md#file, docs/rules.md, docs/limits.md#toml-depth
 */
import { parse, TomlError } from 'smol-toml';
import { MthdsParserError } from '../../errors/index.js';
import { MESSAGES } from '../messages.js';
import { MAX_TOML_DEPTH, scanToml, type TooDeep } from './toml-scan.js';

/**
 * The error of a text nesting past {@link MAX_TOML_DEPTH}.
 * @param content - the file text
 * @param tooDeep - where {@link scanToml} found the first level past the limit
 * @param source - its logical file name, or null
 * @returns a `MthdsParserError` whose message starts `TOML nesting too deep (<source>, line L, column C)` and whose
 *   `position` holds the 1-based line and code-point column of the key, header or bracket that opens the level
 */
export function tomlDepthError(content: string, tooDeep: TooDeep, source: string | null): MthdsParserError {
  const lineStart = content.lastIndexOf('\n', tooDeep.index - 1) + 1;
  let line = 1;
  for (let index = content.indexOf('\n'); index !== -1 && index < lineStart; index = content.indexOf('\n', index + 1))
    line += 1;
  const column = [...content.slice(lineStart, tooDeep.index)].length + 1;
  return new MthdsParserError(MESSAGES.toml_too_deep({ source, line, column, max: MAX_TOML_DEPTH }), {
    source,
    line,
    column,
  });
}

/**
 * Parse TOML text into plain JSON data (TOML dates and times become ISO strings, as content is JSON).
 * @param content - the file text
 * @param source - its logical file name (`mthds_sources[i]`), or null; named in the message
 * @returns the top-level table
 * @throws MthdsParserError (`error_type` `MthdsParserError`) whose message starts `TOML syntax error (<source>, line L,
 *   column C)` — or `TOML nesting too deep (…)` past {@link MAX_TOML_DEPTH} — and whose `position` holds the 1-based
 *   line and column
 * @example parseToml('domain = "x"', 'x.mthds') // → { domain: 'x' }
 */
export function parseToml(content: string, source: string | null): Record<string, unknown> {
  const { tooDeep } = scanToml(content);
  if (tooDeep) throw tomlDepthError(content, tooDeep, source);
  let data: Record<string, unknown>;
  try {
    data = parse(content, { maxDepth: MAX_TOML_DEPTH });
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = (error.message.split('\n')[0] ?? '').trim();
    const message = MESSAGES.toml_syntax({ source, line: error.line, column: error.column, reason });
    throw new MthdsParserError(message, { source, line: error.line, column: error.column }, { cause: error });
  }
  return jsonData(data) as Record<string, unknown>;
}

/**
 * The JSON data a parsed TOML value stands for: what `JSON.parse(JSON.stringify(value))` gives, in one walk and
 * without the text. Tables (smol-toml makes them without a prototype) become plain objects, a `__proto__` key staying
 * an own member; dates and times become the strings their `toJSON` gives; a non-finite float becomes null and `-0`
 * becomes 0, as JSON writes them.
 * @param value - a value smol-toml parsed (a table, an array, a string, a number, a boolean or a `TomlDate`)
 */
function jsonData(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Date) return value.toJSON();
  if (Array.isArray(value)) return value.map((item: unknown) => jsonData(item));
  const table = value as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(table)) {
    const member = jsonData(table[key]);
    if (key === '__proto__')
      Object.defineProperty(data, key, { value: member, enumerable: true, writable: true, configurable: true });
    else data[key] = member;
  }
  return data;
}
