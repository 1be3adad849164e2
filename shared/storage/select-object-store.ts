/**
 * The object store a deployment's settings select (`STORAGE_BACKEND`; docs/storage.md "Configuration").
 */
import type { StorageSettings } from '../config/index.js';
import { FsObjectStore } from './fs-object-store.js';
import type { ObjectStore } from './object-store.js';
import { S3ObjectStore } from './s3-object-store.js';

/**
 * Open the object store of the settings.
 * @param settings - `STORAGE_BACKEND` and its `STORAGE_DIR` or `STORAGE_S3_*` settings
 * @returns the store; an S3 store's connections are closed by {@link closeObjectStore}
 */
export function openObjectStore(settings: StorageSettings): ObjectStore {
  if (settings.backend === 'fs') return new FsObjectStore(settings.dir);
  return new S3ObjectStore(settings.s3);
}

/**
 * Release what a store holds open (an S3 client's sockets); nothing for the filesystem.
 * @param store - a store {@link openObjectStore} opened
 */
export function closeObjectStore(store: ObjectStore): void {
  if (store instanceof S3ObjectStore) store.close();
}
