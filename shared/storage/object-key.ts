/**
 * Object keys of run storage (spec §2.3 `storage_scope`; docs/storage.md#layout): `<scope>/<leaf>/<name>`, where the
 * scope is the run's `storage_scope` (1–3 path-safe segments, never interpreted), the leaf one of the runtime's own
 * leaves and the name one path-safe segment. Keys are built and parsed only here, and only from values that match
 * these patterns, so no scope or object name can escape its prefix: traversal (`..`), absolute paths, separators,
 * percent-encoded and Unicode forms (which would normalise to any of these) are refused, never rewritten.
 */
import { createHash } from 'node:crypto';
import { StoragePathError } from '../errors/index.js';

/** The leaves the runner writes under a scope (spec §2.3); `uploads` holds what callers uploaded (docs/uploads.md). */
const STORAGE_LEAVES = ['assets', 'generated', 'results', 'payloads', 'submissions', 'uploads'] as const;
/** One leaf: `assets`, `generated`, `results`, `payloads`, `submissions` or `uploads`. */
export type StorageLeaf = (typeof STORAGE_LEAVES)[number];

/** One path-safe segment of a `storage_scope`: `[A-Za-z0-9_-]`, at least one (a JWT `user_id` is one, too). */
export const STORAGE_SEGMENT_PATTERN = /^[A-Za-z0-9_-]+$/;
/** A valid `storage_scope`: 1 to 3 segments of `[A-Za-z0-9_-]` separated by `/` (spec §2.3). */
export const STORAGE_SCOPE_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+){0,2}$/;
/** A valid object name: one segment of at most 200 `[A-Za-z0-9._-]`, not starting with a dot. */
const OBJECT_NAME_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** Where one object lives. */
export interface ObjectKey {
  /** The run's `storage_scope`. */
  scope: string;
  leaf: StorageLeaf;
  /** The object's name inside its leaf. */
  name: string;
}

function isLeaf(value: string): value is StorageLeaf {
  return (STORAGE_LEAVES as readonly string[]).includes(value);
}

/**
 * Check a key's parts.
 * @param key - scope, leaf and name
 * @returns the key itself
 * @throws StoragePathError (422) for a scope, leaf or name outside its pattern
 */
export function checkedKey(key: ObjectKey): ObjectKey {
  if (!STORAGE_SCOPE_PATTERN.test(key.scope))
    throw new StoragePathError('storage scope must be 1 to 3 path-safe segments ([A-Za-z0-9_-]) separated by /');
  if (!isLeaf(key.leaf)) throw new StoragePathError(`storage leaf must be one of ${STORAGE_LEAVES.join(', ')}`);
  if (!OBJECT_NAME_PATTERN.test(key.name))
    throw new StoragePathError('object name must be one segment of [A-Za-z0-9._-], not starting with a dot');
  return key;
}

/**
 * The key's path: `<scope>/<leaf>/<name>`.
 * @param key - scope, leaf and name
 * @throws StoragePathError (422) as {@link checkedKey}
 */
export function objectPath(key: ObjectKey): string {
  const { scope, leaf, name } = checkedKey(key);
  return `${scope}/${leaf}/${name}`;
}

/**
 * The key of a path `<scope>/<leaf>/<name>` (the inverse of {@link objectPath}).
 * @param path - a path as {@link objectPath} writes it
 * @throws StoragePathError (422) for any other path
 */
export function parseObjectPath(path: string): ObjectKey {
  const segments = path.split('/');
  if (segments.length < 3 || segments.length > 5)
    throw new StoragePathError('object path must be <scope>/<leaf>/<name> with a scope of 1 to 3 segments');
  const name = segments.at(-1)!;
  const leaf = segments.at(-2)!;
  if (!isLeaf(leaf)) throw new StoragePathError(`storage leaf must be one of ${STORAGE_LEAVES.join(', ')}`);
  return checkedKey({ scope: segments.slice(0, -2).join('/'), leaf, name });
}

/**
 * An object name for a run id: the id itself when it is a valid name, else its SHA-256 (a client-chosen
 * `pipeline_run_id` may hold any character).
 * @param runId - the `pipeline_run_id`
 * @param extension - the name's extension without the dot, e.g. `json`
 */
export function runObjectName(runId: string, extension: string): string {
  const name = `${runId}.${extension}`;
  return OBJECT_NAME_PATTERN.test(name) && !runId.includes('.') ? name : `${sha256Hex(runId)}.${extension}`;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
