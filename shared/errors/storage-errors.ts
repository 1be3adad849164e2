/**
 * Errors of run storage (spec §2.3 `storage_scope`; docs/storage.md): object paths outside their prefix, objects that
 * are not there, a backend that does not answer. A scope the caller does not own is `StorageOwnershipMismatchError`
 * (ownership-errors.ts).
 */
import { MthdsError } from './mthds-error.js';

/**
 * 422: a storage scope, leaf or object name outside its pattern (traversal, absolute, encoded or Unicode forms are
 * refused, never rewritten; code `storage_path_invalid`).
 */
export class StoragePathError extends MthdsError {}
/**
 * 422: a storage reference (`pipelex-storage://…`, or the earlier `mthds-storage:…`) that names no object a caller may
 * read: malformed, a traversal or encoded form, or a leaf that is never served (code `invalid_storage_uri`;
 * docs/uploads.md#storage-references).
 */
export class InvalidStorageUriError extends MthdsError {}
/** 404: no stored object at this path, or it expired (code `storage_object_not_found`). */
export class StorageObjectNotFoundError extends MthdsError {}
/** 503 (retryable): the object store (directory or bucket) failed to answer; nothing was read or written. */
export class StorageUnavailableError extends MthdsError {}
