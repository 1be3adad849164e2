/**
 * The S3 backend of the object store (`STORAGE_BACKEND=s3`): one object per key in a bucket of any S3-compatible
 * service (AWS S3, MinIO, Ceph, R2 …), through the AWS SDK v3. Credentials come from the SDK's default chain
 * (`AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`, a profile, an instance or pod role). A `PutObject` is atomic: readers
 * see the old object or the new one. Reads for callers go through presigned `GetObject` URLs.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { StorageUnavailableError } from '../errors/index.js';
import { type ObjectKey, objectPath, parseObjectPath } from './object-key.js';
import type { ObjectInfo, ObjectStore, StoredObject } from './object-store.js';

/** Where the bucket is (`STORAGE_S3_*`). */
export interface S3StoreOptions {
  bucket: string;
  /** The service's URL for a non-AWS service (e.g. `http://minio:9000`); AWS's own endpoint when absent. */
  endpoint?: string;
  region: string;
  /**
   * Address the bucket in the path (`endpoint/bucket/key`) rather than as a subdomain; most non-AWS services need it.
   */
  forcePathStyle: boolean;
  /** Clock that dates presigned URLs, epoch ms; `Date.now` by default (tests sign with a clock set back). */
  now?: () => number;
}

function unavailable(error: unknown): StorageUnavailableError {
  return new StorageUnavailableError(`The object store (S3 bucket) failed: ${(error as Error).message}`, {
    cause: error,
    retryable: true,
  });
}

function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
}

/** Objects in a bucket. */
export class S3ObjectStore implements ObjectStore {
  readonly backend = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly now: () => number;

  /** @param options - bucket, endpoint, region and addressing style */
  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.now = options.now ?? Date.now;
    this.client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    });
  }

  async put(key: ObjectKey, body: Uint8Array, contentType: string): Promise<void> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: objectPath(key),
      Body: body,
      ContentType: contentType,
    });
    await this.client.send(command).catch((error: unknown) => {
      throw unavailable(error);
    });
  }

  async get(key: ObjectKey): Promise<StoredObject | undefined> {
    const command = new GetObjectCommand({ Bucket: this.bucket, Key: objectPath(key) });
    try {
      const answer = await this.client.send(command);
      const body = answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array();
      return { body, contentType: answer.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw unavailable(error);
    }
  }

  async delete(key: ObjectKey): Promise<void> {
    const command = new DeleteObjectCommand({ Bucket: this.bucket, Key: objectPath(key) });
    await this.client.send(command).catch((error: unknown) => {
      throw unavailable(error);
    });
  }

  async *list(): AsyncIterable<ObjectInfo> {
    let token: string | undefined;
    do {
      const page: ListObjectsV2CommandOutput = await this.client
        .send(new ListObjectsV2Command({ Bucket: this.bucket, ...(token ? { ContinuationToken: token } : {}) }))
        .catch((error: unknown) => {
          throw unavailable(error);
        });
      for (const entry of page.Contents ?? []) {
        if (!entry.Key) continue;
        let key: ObjectKey;
        try {
          key = parseObjectPath(entry.Key);
        } catch {
          continue;
        }
        yield { key, modifiedAt: entry.LastModified?.getTime() ?? 0, size: entry.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  signedUrl(key: ObjectKey, expiresInSeconds: number): Promise<string> {
    const command = new GetObjectCommand({ Bucket: this.bucket, Key: objectPath(key) });
    return getSignedUrl(this.client, command, { expiresIn: expiresInSeconds, signingDate: new Date(this.now()) });
  }

  close(): void {
    this.client.destroy();
  }
}
