/**
 * The sources of a stored method as the catalog keeps them (docs/api.md#methods-catalog): `mthds` is one raw `.mthds`
 * text or the JSON text of `[{name, content}]`; `python` is the JSON text of `[{name, content}]`, `''` for none. The
 * draft digest is SHA-256 over the canonical form of the two file sets, so equal digests mean the same sources.
 */
import { createHash } from 'node:crypto';

/** One file of a stored method. */
export interface MethodFile {
  /** Its name; `null` for the one text of a raw `mthds`. */
  readonly name: string | null;
  readonly content: string;
}

function isFileEntry(value: unknown): value is { name: string; content: string } {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry['name'] === 'string' && typeof entry['content'] === 'string';
}

/**
 * The files of a stored `mthds` (or `python`) text: the entries of a JSON `[{name, content}]` array, else the text
 * itself as one unnamed file. Blank files are left out, so an empty or blank text has none.
 * @param stored - the stored text
 */
export function methodFiles(stored: string): MethodFile[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    parsed = undefined;
  }
  const files: MethodFile[] =
    Array.isArray(parsed) && parsed.every(isFileEntry)
      ? parsed.map((entry) => ({ name: entry.name, content: entry.content }))
      : [{ name: null, content: stored }];
  return files.filter((file) => file.content.trim() !== '');
}

/**
 * The digest of a method's sources: SHA-256, lower-case hex, of the JSON of its `.mthds` files and its Python files
 * (each `[name, content]`, in their stored order).
 * @param mthds - the stored `mthds` text
 * @param python - the stored `python` text
 */
export function methodDigest(mthds: string, python: string): string {
  const canonical = JSON.stringify([
    methodFiles(mthds).map((file) => [file.name, file.content]),
    methodFiles(python).map((file) => [file.name, file.content]),
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
