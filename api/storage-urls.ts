/**
 * Storage references in served values (docs/storage.md#media): a run value holds `mthds-storage:<scope>/<leaf>/<name>`
 * where a large document or image was moved to storage; a caller gets a URL it can fetch in its place — a presigned
 * URL on the S3 backend (valid `STORAGE_URL_TTL_SECONDS`), the authenticated route `GET /v1/storage/<path>` of this
 * server on the filesystem backend — never a path on the server's disk. Only references under the run's own scope
 * are turned into URLs; any other string is left as it is.
 */
import type { Request } from 'express';
import { refsIn, replaceRefs } from '../shared/orchestration/index.js';
import { type ObjectStore, objectPath } from '../shared/storage/index.js';

/** Where the filesystem backend's objects are served. */
const STORAGE_ROUTE_PREFIX = '/v1/storage/';

/** How references are turned into URLs for one request. */
export interface StorageUrlContext {
  store: ObjectStore;
  /** Lifetime of a presigned URL, in seconds. */
  urlTtlSeconds: number;
  /** The request the value answers (its scheme and host make the filesystem route's absolute URL). */
  req: Request;
}

/**
 * A value with the references under `scope` replaced by fetchable URLs.
 * @param value - plain JSON (a run result, a results body)
 * @param scope - the run's `storage_scope`
 * @param context - store, URL lifetime and request
 * @throws StorageUnavailableError (503) when a URL cannot be signed
 */
export async function withFetchableUrls<T>(value: T, scope: string, context: StorageUrlContext): Promise<T> {
  const urls = new Map<string, string>();
  const origin = `${context.req.protocol}://${context.req.get('host') ?? 'localhost'}`;
  for (const [ref, key] of refsIn(value, scope)) {
    if (key.leaf !== 'assets' && key.leaf !== 'generated') continue;
    const signed = await context.store.signedUrl(key, context.urlTtlSeconds);
    urls.set(ref, signed ?? `${origin}${STORAGE_ROUTE_PREFIX}${objectPath(key)}`);
  }
  return replaceRefs(value, urls);
}
