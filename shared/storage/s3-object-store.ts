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
import type { ObjectInfo, ObjectStore, PutGrant, SignedPut, StoredObject } from './object-store.js';

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
      // no checksum of a body the SDK does not send: a presigned PUT must not sign the checksum of an empty body
      requestChecksumCalculation: 'WHEN_REQUIRED',
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

  /**
   * A conditional `PutObject` (`If-None-Match: *`): a service that honours it (AWS S3, MinIO) refuses a second write
   * with 412; one that ignores it (s3rver) writes over the first.
   */
  async create(key: ObjectKey, body: Uint8Array, contentType: string): Promise<boolean> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: objectPath(key),
      Body: body,
      ContentType: contentType,
      IfNoneMatch: '*',
    });
    try {
      await this.client.send(command);
      return true;
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 412) return false;
      throw unavailable(error);
    }
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

  /**
   * A presigned create-only `PutObject`: `Content-Length`, `Content-Type` and `If-None-Match: *` are signed headers,
   * so the PUT must send exactly the grant's size and media type, and a service that honours the condition refuses a
   * second PUT with 412 `PreconditionFailed`.
   */
  async signedPut(key: ObjectKey, grant: PutGrant): Promise<SignedPut> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: objectPath(key),
      ContentType: grant.contentType,
      ContentLength: grant.size,
      IfNoneMatch: '*',
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: grant.expiresInSeconds,
      signingDate: new Date(this.now()),
      signableHeaders: new Set(['content-type', 'content-length', 'if-none-match']),
      unhoistableHeaders: new Set(['if-none-match']),
    });
    return { url, headers: { 'Content-Type': grant.contentType, 'If-None-Match': '*' } };
  }

  close(): void {
    this.client.destroy();
  }
}
