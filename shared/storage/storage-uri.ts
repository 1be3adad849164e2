/**
 * Storage references a caller holds (docs/uploads.md#storage-references): `pipelex-storage://<scope>/<leaf>/<name>`,
 * and the earlier spelling `mthds-storage:<scope>/<leaf>/<name>`, both naming one object of a readable leaf
 * (`uploads`, `assets`, `generated`). A reference is a whole string; its path is parsed by `object-key.ts`, so a
 * reference can name no key outside its scope: traversal, encoded, absolute and Unicode forms are refused, never
 * rewritten. Who may read the scope is decided above this layer (the scope rule of docs/run-ownership.md).
 */
import { InvalidStorageUriError, StoragePathError } from '../errors/index.js';
import { type ObjectKey, objectPath, parseObjectPath, type StorageLeaf } from './object-key.js';

/** The scheme of the references callers hold. */
export const PIPELEX_STORAGE_SCHEME = 'pipelex-storage://';
/** The earlier scheme of this runner's references, still accepted (docs/storage.md#media). */
const EARLIER_STORAGE_SCHEME = 'mthds-storage:';

/** The leaves a reference may name: what callers uploaded, and a run's media. */
const READABLE_LEAVES: readonly StorageLeaf[] = ['uploads', 'assets', 'generated'];

/**
 * The reference of an object.
 * @param key - the object's key
 * @returns `pipelex-storage://<scope>/<leaf>/<name>`
 * @throws StoragePathError (422) for a key outside the patterns of `object-key.ts`
 */
export function storageUri(key: ObjectKey): string {
  return `${PIPELEX_STORAGE_SCHEME}${objectPath(key)}`;
}

/**
 * Whether a string is meant as a storage reference: it starts with either scheme.
 * @param text - any string
 */
export function isStorageReference(text: string): boolean {
  return text.startsWith(PIPELEX_STORAGE_SCHEME) || text.startsWith(EARLIER_STORAGE_SCHEME);
}

/**
 * The key a reference names.
 * @param reference - `pipelex-storage://<scope>/<leaf>/<name>` or `mthds-storage:<scope>/<leaf>/<name>`
 * @returns the key, whose leaf is `uploads`, `assets` or `generated`
 * @throws InvalidStorageUriError (422) for any other string: another scheme, a path outside the key patterns
 *   (traversal, percent-encoded, Unicode, query or fragment forms), or a leaf that is never served
 */
export function parseStorageUri(reference: string): ObjectKey {
  const scheme = [PIPELEX_STORAGE_SCHEME, EARLIER_STORAGE_SCHEME].find((prefix) => reference.startsWith(prefix));
  if (!scheme)
    throw new InvalidStorageUriError(`'${preview(reference)}' is not a ${PIPELEX_STORAGE_SCHEME} reference.`);
  let key: ObjectKey;
  try {
    key = parseObjectPath(reference.slice(scheme.length));
  } catch (error) {
    if (!(error instanceof StoragePathError)) throw error;
    throw new InvalidStorageUriError(
      `'${preview(reference)}' is not a valid storage reference: ${error.message} (${PIPELEX_STORAGE_SCHEME}<scope>/<leaf>/<name>).`,
      { cause: error },
    );
  }
  if (!READABLE_LEAVES.includes(key.leaf))
    throw new InvalidStorageUriError(
      `'${preview(reference)}' names the ${key.leaf}/ leaf; a reference names an object of ${READABLE_LEAVES.join('/, ')}/.`,
    );
  return key;
}

/** The start of a string, for a message (a reference is never longer than a few hundred characters). */
function preview(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
