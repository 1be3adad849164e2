/**
 * The entry-name rule of submitted bundles: a name must be a relative POSIX path inside the bundle. Refused with 422
 * `InvalidBundle`: an empty name, a backslash, a `:` (drive letters, alternate streams), a NUL or other control
 * character, an absolute path, any `..` segment, and a name with no file name (ending in `/` or `/.`). `.` and empty
 * segments are normalised away (`./a//b.mthds` → `a/b.mthds`).
 *
 * @see docs/bundles.md#whole-bundle-transports
 */
import { posix } from 'node:path';
import { InvalidBundle } from '../errors/index.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what the pattern refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The 422 for a refused bundle entry, in the one wording every entry check uses.
 * @param name - the entry name as sent (shown JSON-quoted, cut to 200 characters)
 * @param why - the rule it breaks, a clause without the final full stop (`it is encrypted`)
 * @param cause - the underlying failure, when there is one
 * @returns the InvalidBundle to throw
 * @see docs/bundles.md#whole-bundle-transports
 */
export function refusedEntry(name: string, why: string, cause?: unknown): InvalidBundle {
  const detail = `Bundle entry ${JSON.stringify(name.slice(0, 200))} is refused: ${why}.`;
  return cause === undefined ? new InvalidBundle(detail) : new InvalidBundle(detail, { cause });
}

/** The rule a name breaks, as a clause for {@link refusedEntry}, or undefined when it is a valid entry name. */
function brokenRule(name: string): string | undefined {
  if (name === '') return 'the name is empty';
  if (name.includes('\\')) return 'it contains a backslash (use / as the separator)';
  if (name.includes(':')) return "it contains ':'";
  if (CONTROL.test(name)) return 'it contains a control character';
  if (name.startsWith('/')) return 'it is an absolute path';
  if (name.split('/').includes('..')) return "it has a '..' segment";
  const fileName = name.split('/').at(-1);
  if (fileName === '' || fileName === '.') return 'it has no file name';
  return undefined;
}

/**
 * The normalised path of a valid entry name, without throwing (lookups by a path a method wrote).
 * @param name - a bundle-relative path as written
 * @returns the normalised bundle-relative path, or undefined when the entry-name rule refuses the name
 */
export function normalisedEntryPath(name: string): string | undefined {
  return brokenRule(name) === undefined ? posix.normalize(name) : undefined;
}

/**
 * Check an entry name and return its normalised path.
 * @param name - the name as sent (zip entry name or `files` key)
 * @returns the normalised bundle-relative path
 * @throws InvalidBundle (422) naming the entry and the rule it breaks
 */
export function checkEntryName(name: string): string {
  const broken = brokenRule(name);
  if (broken !== undefined) throw refusedEntry(name, broken);
  return posix.normalize(name);
}
