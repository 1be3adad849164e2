/**
 * The object store a deployment's settings select (`STORAGE_BACKEND`; docs/storage.md#backends). The S3 backend and
 * the AWS SDK behind it are loaded on the store's first use, so a filesystem deployment never loads them.
 */
import type { StorageSettings } from '../config/index.js';
import { FsObjectStore } from './fs-object-store.js';
import type { ObjectKey } from './object-key.js';
import type { ObjectInfo, ObjectStore, PutGrant, SignedPut, StoredObject } from './object-store.js';
import type { S3StoreOptions } from './s3-object-store.js';

/** The S3 store, loaded with its SDK when first used. */
class LazyS3ObjectStore implements ObjectStore {
  readonly backend = 's3';
  private loaded: Promise<ObjectStore> | undefined;

  constructor(private readonly options: S3StoreOptions) {}

  private store(): Promise<ObjectStore> {
    this.loaded ??= import('./s3-object-store.js').then(({ S3ObjectStore }) => new S3ObjectStore(this.options));
    return this.loaded;
  }

  async put(key: ObjectKey, body: Uint8Array, contentType: string): Promise<void> {
    await (await this.store()).put(key, body, contentType);
  }

  async create(key: ObjectKey, body: Uint8Array, contentType: string): Promise<boolean> {
    return (await this.store()).create(key, body, contentType);
  }

  async get(key: ObjectKey): Promise<StoredObject | undefined> {
    return (await this.store()).get(key);
  }

  async delete(key: ObjectKey): Promise<void> {
    await (await this.store()).delete(key);
  }

  async *list(): AsyncIterable<ObjectInfo> {
    yield* (await this.store()).list();
  }

  async signedUrl(key: ObjectKey, expiresInSeconds: number): Promise<string | undefined> {
    return (await this.store()).signedUrl(key, expiresInSeconds);
  }

  async signedPut(key: ObjectKey, grant: PutGrant): Promise<SignedPut | undefined> {
    return (await this.store()).signedPut(key, grant);
  }

  close(): void {
    void this.loaded?.then((store) => store.close());
  }
}

/**
 * Open the object store of the settings.
 * @param settings - `STORAGE_BACKEND` and its `STORAGE_DIR` or `STORAGE_S3_*` settings
 * @returns the store (its owner calls `close()` on shutdown)
 */
export function openObjectStore(settings: StorageSettings): ObjectStore {
  if (settings.backend === 'fs') return new FsObjectStore(settings.dir);
  return new LazyS3ObjectStore(settings.s3);
}
