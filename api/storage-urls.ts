/**
 * Storage references in served values (docs/storage.md#media, docs/uploads.md#in-results): where a run value holds a
 * file as a storage reference (a large document or image moved to storage, `mthds-storage:<scope>/<leaf>/<name>`, or
 * a caller's `pipelex-storage://` reference), the caller gets
 *
 * - on an object whose `url` is a reference: `url` as the `pipelex-storage://` reference, and `public_url` beside it,
 *   a link valid `STORAGE_URL_TTL_SECONDS` that needs no credential (an S3 presigned URL, or this server's signed
 *   storage route on the filesystem backend);
 * - where a reference is embedded in a longer string (a graph rendering): that link in its place.
 *
 * Only references the caller may read (the scope rule of docs/run-ownership.md) are linked; any other string is left as
 * it is. Never a path on the server's disk.
 */
import type { Request } from 'express';
import { refsIn, replaceRefs } from '../shared/orchestration/index.js';
import { isStorageReference, type ObjectKey, parseStorageUri, storageUri } from '../shared/storage/index.js';
import type { Identity } from './middleware/authenticate.js';
import { mayUseScope } from './run-ownership.js';
import { requestOrigin, type StorageLinks } from './storage-links.js';

/** How references are turned into links for one request. */
export interface StorageUrlContext {
  links: StorageLinks;
  /** The request the value answers (its scheme and host make the filesystem backend's links). */
  req: Request;
}

/** The leaves whose objects are linked in results. */
const LINKED_LEAVES = new Set(['assets', 'generated', 'uploads']);

/** Whether any string of a value (plain JSON) may hold a reference; the walk stops at the first. */
function mayHoldRefs(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('storage:');
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(mayHoldRefs);
}

/** The objects of a value whose `url` is a string, depth first. */
function* urlHolders(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) yield* urlHolders(item);
  else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (typeof object['url'] === 'string') yield object;
    for (const item of Object.values(object)) yield* urlHolders(item);
  }
}

/** A copy of a value in which each object whose `url` is a key of `links` gets its reference and `public_url`. */
function withFileLinks(value: unknown, links: ReadonlyMap<string, { uri: string; link: string }>): unknown {
  if (Array.isArray(value)) return value.map((item) => withFileLinks(item, links));
  if (value === null || typeof value !== 'object') return value;
  const object: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) object[name] = withFileLinks(item, links);
  const file = typeof object['url'] === 'string' ? links.get(object['url']) : undefined;
  if (file) {
    object['url'] = file.uri;
    object['public_url'] = file.link;
  }
  return object;
}

/**
 * A value with the storage references the caller may read given links (see the module header).
 * @param value - plain JSON (a run result, a results body)
 * @param identity - the caller
 * @param context - the links and the request
 * @throws StorageUnavailableError (503) when a link cannot be signed
 */
export async function withFetchableUrls<T>(value: T, identity: Identity, context: StorageUrlContext): Promise<T> {
  if (!mayHoldRefs(value)) return value;
  const readable = (key: ObjectKey): boolean => LINKED_LEAVES.has(key.leaf) && mayUseScope(identity, key.scope);
  const origin = requestOrigin(context.req);
  const signed = new Map<string, Promise<string>>();
  const link = (key: ObjectKey): Promise<string> => {
    const uri = storageUri(key);
    if (!signed.has(uri))
      signed.set(
        uri,
        context.links.download(key, origin).then(({ url }) => url),
      );
    return signed.get(uri)!;
  };
  const files = new Map<string, { uri: string; link: string }>();
  for (const holder of urlHolders(value)) {
    const url = holder['url'] as string;
    const key = files.has(url) ? undefined : readableKey(url, readable);
    if (key) files.set(url, { uri: storageUri(key), link: await link(key) });
  }
  const withFiles = files.size > 0 ? (withFileLinks(value, files) as T) : value;
  const embedded = new Map<string, string>();
  for (const [ref, key] of refsIn(withFiles, readable)) embedded.set(ref, await link(key));
  return replaceRefs(withFiles, embedded);
}

/** The key of a whole reference the caller may read, else undefined. */
function readableKey(text: string, readable: (key: ObjectKey) => boolean): ObjectKey | undefined {
  if (!isStorageReference(text)) return undefined;
  try {
    const key = parseStorageUri(text);
    return readable(key) ? key : undefined;
  } catch {
    return undefined;
  }
}
