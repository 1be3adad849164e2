/**
 * Public surface of `shared/storage`: the object store port that keeps run objects under `<storage_scope>/<leaf>/`
 * (spec §2.3; docs/storage.md), its filesystem backend and the selection of a backend (the S3 backend,
 * `s3-object-store.ts`, is loaded with its SDK only when selected), and the one place object keys are built and
 * checked, the storage references callers hold, and the signature of the links this server signs itself. An adapter: it knows neither the runtime's values nor orchestration nor HTTP.
 */

export { FsObjectStore } from './fs-object-store.js';
export {
  checkedKey,
  type ObjectKey,
  objectPath,
  parseObjectPath,
  runObjectName,
  type StorageLeaf,
} from './object-key.js';
export type { ObjectInfo, ObjectStore, PutGrant, SignedPut, StoredObject } from './object-store.js';
export { openObjectStore } from './select-object-store.js';
export { isStorageReference, PIPELEX_STORAGE_SCHEME, parseStorageUri, storageUri } from './storage-uri.js';
export { SIGNATURE_PARAMETERS, type SignedRequest, signRequest, verifySignature } from './url-signature.js';
