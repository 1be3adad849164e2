/**
 * Public surface of `shared/storage`: the object store port that keeps run objects under `<storage_scope>/<leaf>/`
 * (spec §2.3; docs/storage.md), its filesystem and S3 backends, and the one place object keys are built and checked.
 * An adapter: it knows neither the runtime's values nor orchestration nor HTTP.
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
export type { ObjectInfo, ObjectStore, StoredObject } from './object-store.js';
export { S3ObjectStore, type S3StoreOptions } from './s3-object-store.js';
export { closeObjectStore, openObjectStore } from './select-object-store.js';
