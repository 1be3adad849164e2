/**
 * Storage references in a run's inputs (docs/uploads.md#in-inputs): a Document or Image input may name its bytes by a
 * `pipelex-storage://` reference (or the earlier `mthds-storage:` spelling) instead of a `data:` or http(s) URL. A run
 * reads only its owner's objects ({@link isRunReadable}): those whose scope starts with the owner's id, and those under
 * the run's own `storage_scope`. The API refuses a run naming any other before accepting it; the process that runs the
 * pipes applies the same rule again, reads each reference from the object store and hands the runtime a `data:` URL
 * ({@link inlineStorageRefs}), so a reference is never fetched over the network.
 *
 * Only whole strings count: a reference is a string that starts with a scheme. A malformed `pipelex-storage://` string
 * is refused; a malformed `mthds-storage:` string stays a plain string, as it always did.
 */
import { StorageObjectNotFoundError } from '../../errors/index.js';
import {
  isStorageReference,
  type ObjectKey,
  type ObjectStore,
  PIPELEX_STORAGE_SCHEME,
  parseStorageUri,
} from '../../storage/index.js';

/** Every string of a JSON value, depth first. */
function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* stringsOf(item);
  else if (value !== null && typeof value === 'object')
    for (const key in value) yield* stringsOf((value as Record<string, unknown>)[key]);
}

/** The key of a reference, undefined for a malformed `mthds-storage:` string (a plain string). */
function keyOf(reference: string): ObjectKey | undefined {
  try {
    return parseStorageUri(reference);
  } catch (error) {
    if (reference.startsWith(PIPELEX_STORAGE_SCHEME)) throw error;
    return undefined;
  }
}

/**
 * The storage references of a value (the `inputs` of a run request), with the keys they name.
 * @param value - plain JSON
 * @returns reference → key, each reference once
 * @throws InvalidStorageUriError (422) for a malformed `pipelex-storage://` string (traversal and encoded forms
 *   included)
 */
export function inputStorageRefs(value: unknown): Map<string, ObjectKey> {
  const found = new Map<string, ObjectKey>();
  for (const text of stringsOf(value)) {
    if (found.has(text) || !isStorageReference(text)) continue;
    const key = keyOf(text);
    if (key) found.set(text, key);
  }
  return found;
}

/** Who a run is, for the objects it may read. */
export interface RunReader {
  /** The run's owner (the caller's own id). */
  owner: string;
  /** The run's effective `storage_scope`. */
  scope: string;
}

/**
 * Whether a run may read an object: its scope starts with the owner's id, or is the run's own scope.
 * @param key - the object
 * @param run - the run's owner and scope
 */
export function isRunReadable(key: ObjectKey, run: RunReader): boolean {
  return key.scope === run.scope || key.scope.split('/')[0] === run.owner;
}

/** A JSON value with some whole strings replaced. */
function replaceWhole(value: unknown, replacements: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return replacements.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => replaceWhole(item, replacements));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, replaceWhole(item, replacements)]));
  return value;
}

/**
 * A value with its storage references replaced by `data:` URLs of the objects they name (what the runtime reads). A
 * reference the run may not read ({@link isRunReadable}; the API refused such a run already) is never read: it stays a
 * plain string.
 * @param value - plain JSON (a run's inputs)
 * @param store - the object store
 * @param run - the run's owner and scope
 * @throws StorageObjectNotFoundError (404) for a `pipelex-storage://` reference whose object is not stored (never
 *   uploaded, or past its retention; an `mthds-storage:` one is left as it is); InvalidStorageUriError (422);
 *   StorageUnavailableError (503) when the store fails
 */
export async function inlineStorageRefs<T>(value: T, store: ObjectStore, run: RunReader): Promise<T> {
  const urls = new Map<string, string>();
  for (const [reference, key] of inputStorageRefs(value)) {
    if (!isRunReadable(key, run)) continue;
    const object = await store.get(key);
    if (object) urls.set(reference, `data:${object.contentType};base64,${Buffer.from(object.body).toString('base64')}`);
    else if (reference.startsWith(PIPELEX_STORAGE_SCHEME))
      throw new StorageObjectNotFoundError(
        `No object is stored at ${reference} (never uploaded, or past its retention: STORAGE_RETENTION_${key.leaf.toUpperCase()}_HOURS).`,
      );
  }
  return urls.size === 0 ? value : (replaceWhole(value, urls) as T);
}
