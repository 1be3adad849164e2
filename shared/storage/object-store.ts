/**
 * The object store port (docs/storage.md): where the objects of runs are kept, whatever holds them — a directory
 * (`STORAGE_BACKEND=fs`) or an S3-compatible bucket (`STORAGE_BACKEND=s3`). Orchestration writes and reads run objects
 * through it; the runtime never sees it, and nothing above it knows a file path or a bucket.
 */
import type { ObjectKey } from './object-key.js';

/** An object as read back. */
export interface StoredObject {
  body: Uint8Array;
  /** Its media type, e.g. `application/json`, `image/png`. */
  contentType: string;
}

/** One object of a listing. */
export interface ObjectInfo {
  key: ObjectKey;
  /** When it was last written, epoch ms. */
  modifiedAt: number;
  /** Its size in bytes. */
  size: number;
}

/** What an upload grant's PUT must send (docs/uploads.md#post-v1uploadgrant). */
export interface SignedPut {
  /** The presigned URL to PUT the bytes to. */
  url: string;
  /** The headers the PUT must carry, exactly (they are signed). */
  headers: Record<string, string>;
}

/** What a presigned PUT allows: one object of an exact size and media type, until it expires. */
export interface PutGrant {
  /** The body's exact size, in bytes. */
  size: number;
  /** The body's media type. */
  contentType: string;
  /** Lifetime of the URL, in seconds. */
  expiresInSeconds: number;
}

/** Where run objects are stored. Every method may throw StorageUnavailableError (503) when the backend fails. */
export interface ObjectStore {
  /** `fs` or `s3` (`STORAGE_BACKEND`). */
  readonly backend: 'fs' | 's3';
  /**
   * Write an object whole, replacing any earlier one; a reader sees either the old or the new bytes, never a part.
   * @param key - where (checked: StoragePathError 422 for a key outside the patterns of `object-key.ts`)
   * @param body - the bytes
   * @param contentType - its media type
   */
  put(key: ObjectKey, body: Uint8Array, contentType: string): Promise<void>;
  /**
   * Write an object only if none is stored at its key (create-only: a second write of the same key never replaces the
   * first, even when both race).
   * @returns true when this call created the object, false when one was already there
   */
  create(key: ObjectKey, body: Uint8Array, contentType: string): Promise<boolean>;
  /**
   * Read an object.
   * @returns the object, or undefined when there is none
   */
  get(key: ObjectKey): Promise<StoredObject | undefined>;
  /** Delete an object; deleting a missing one is no error. */
  delete(key: ObjectKey): Promise<void>;
  /** Every object of the store, in no particular order (entries that are not run objects are skipped). */
  list(): AsyncIterable<ObjectInfo>;
  /**
   * A URL anyone holding it may GET the object at, for `expiresInSeconds` (S3 presigned URL); undefined on a backend
   * without one (fs: the API serves the object on an authenticated route instead).
   */
  signedUrl(key: ObjectKey, expiresInSeconds: number): Promise<string | undefined>;
  /**
   * A URL anyone holding it may PUT the object to, once, with exactly the grant's size and media type, until it expires
   * (S3: a presigned create-only `PutObject`); undefined on a backend without one (fs: this server's own signed route).
   */
  signedPut(key: ObjectKey, grant: PutGrant): Promise<SignedPut | undefined>;
  /** Release what the store holds open (an S3 client's sockets); nothing for a directory. */
  close(): void;
}
