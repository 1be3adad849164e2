/**
 * One concept or pipe definition written as the TOML of a `.mthds` file, in the layout the corpus uses: a
 * `[concept.<Code>]` or `[pipe.<code>]` table whose values are inline (`inputs = { text = "Text" }`; steps and branches
 * as an array of inline tables, one per line), plus, for a concept, its structure as a `[concept.<Code>.structure]`
 * sub-table with one line per
 * field. Scalars are written by smol-toml, so strings carry TOML's escapes.
 *
 * @see docs/bundle-format.md, docs/concepts.md, docs/language.md
 */
import { stringify } from 'smol-toml';

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A scalar (string, number, boolean) as smol-toml writes it. */
function scalar(value: string | number | boolean): string {
  return stringify({ v: value }).slice('v = '.length).trimEnd();
}

function key(name: string): string {
  return BARE_KEY.test(name) ? name : scalar(name);
}

function entries(table: Record<string, unknown>): [string, unknown][] {
  return Object.entries(table).filter(([, value]) => value !== undefined && value !== null);
}

/** A JSON value as an inline TOML value (inline tables for objects). */
function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = entries(value as Record<string, unknown>).map(
      ([name, member]) => `${key(name)} = ${inline(member)}`,
    );
    return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return scalar(value);
  throw new TypeError(`A definition value has no TOML form: ${String(value)}`);
}

/** A member line; an array of tables spreads over one line per table, as the corpus writes steps and branches. */
function line(name: string, value: unknown): string {
  const spread =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item));
  if (!spread) return `${key(name)} = ${inline(value)}`;
  return [`${key(name)} = [`, ...(value as unknown[]).map((item) => `  ${inline(item)},`), ']'].join('\n');
}

function lines(table: Record<string, unknown>): string[] {
  return entries(table).map(([name, value]) => line(name, value));
}

/**
 * Write a definition as TOML.
 * @param section - `concept` or `pipe`
 * @param code - the concept or pipe code (the table key)
 * @param table - the definition's members, in the order to write them; undefined and null members are left out
 * @param subTable - a member written as its own `[<section>.<code>.<member>]` table (a concept's `structure`), when it
 *   is an object
 * @returns the TOML text, ending with a newline
 * @throws TypeError when a value is not JSON (a programming error: definitions come from parsed JSON)
 * @example definitionToml('pipe', 'greet', { type: 'PipeLLM', inputs: { name: 'Text' } })
 *   // → '[pipe.greet]\ntype = "PipeLLM"\ninputs = { name = "Text" }\n'
 */
export function definitionToml(
  section: 'concept' | 'pipe',
  code: string,
  table: Record<string, unknown>,
  subTable?: string,
): string {
  const header = `${section}.${key(code)}`;
  const nested = subTable === undefined ? undefined : table[subTable];
  if (nested === null || typeof nested !== 'object' || Array.isArray(nested))
    return [`[${header}]`, ...lines(table), ''].join('\n');
  const { [subTable as string]: _written, ...own } = table;
  const fields = nested as Record<string, unknown>;
  return [`[${header}]`, ...lines(own), '', `[${header}.${key(subTable as string)}]`, ...lines(fields), ''].join('\n');
}
