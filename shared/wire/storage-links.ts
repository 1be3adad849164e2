/**
 * The answers of the upload and storage-reference routes (docs/uploads.md), in the hosted Pipelex API's shapes, which
 * its SDK and the n8n node read: an upload's reference, an upload grant, a resolved reference, and one verdict of a
 * bulk resolution. Times are ISO 8601, UTC.
 */

/** `POST /v1/upload`: the reference of the object just stored. */
export interface UploadAnswer {
  /** `pipelex-storage://<owner>/uploads/<name>`. */
  uri: string;
  /** The file name as the caller gave it. */
  filename: string;
}

/** `POST /v1/upload/grant`: where and how to PUT the bytes once. */
export interface UploadGrantAnswer {
  /** The reference the object will have once PUT. */
  uri: string;
  /** The URL to PUT the bytes to (no credential needed; it expires). */
  url: string;
  /** The headers the PUT must carry, exactly. */
  headers: Record<string, string>;
  expires_at: string;
  /** The body's size the PUT must send, in bytes (its `Content-Length`). */
  max_bytes: number;
}

/** `POST /v1/resolve-storage-url`: a link to a referenced object. */
export interface ResolvedStorageUrl {
  url: string;
  expires_at: string;
  /** The object's media type, from its name; null when unknown. */
  content_type: string | null;
}

/** Why a reference of a bulk resolution was refused. */
export interface StorageUrlRefusal {
  /** `invalid_storage_uri` (malformed) or `forbidden` (another owner's). */
  code: 'invalid_storage_uri' | 'forbidden';
  detail: string;
}

/** One verdict of `POST /v1/resolve-storage-url/bulk`: a link, or a refusal (its link fields null). */
export interface BulkResolvedItem {
  uri: string;
  url: string | null;
  expires_at: string | null;
  content_type: string | null;
  error: StorageUrlRefusal | null;
}

/**
 * The verdict of a reference that resolved.
 * @param uri - the reference as sent
 * @param resolved - its link
 */
export function resolvedItem(uri: string, resolved: ResolvedStorageUrl): BulkResolvedItem {
  return { uri, ...resolved, error: null };
}

/**
 * The verdict of a reference that was refused.
 * @param uri - the reference as sent
 * @param error - why
 */
export function refusedItem(uri: string, error: StorageUrlRefusal): BulkResolvedItem {
  return { uri, url: null, expires_at: null, content_type: null, error };
}
