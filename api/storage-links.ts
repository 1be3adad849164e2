/**
 * Links to stored objects that work without the caller's credential (docs/uploads.md#signed-links): a download link
 * (the `url` of a resolved reference, the `public_url` beside a reference in results) and an upload grant's PUT. The
 * S3 backend presigns them; the filesystem backend, which has no presigned URLs, gets URLs of this server's own
 * storage route signed with `STORAGE_SIGNING_SECRET` (`signed-storage.ts` serves them), built from the scheme and
 * `Host` the request came with.
 */
import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import {
  type ObjectKey,
  type ObjectStore,
  objectPath,
  SIGNATURE_PARAMETERS,
  type SignedRequest,
  signRequest,
} from '../shared/storage/index.js';

/** Where this server serves stored objects (and takes the PUT of an upload grant, on the filesystem backend). */
export const STORAGE_ROUTE_PREFIX = '/v1/storage/';

/** A link and when it stops working. */
export interface StorageLink {
  url: string;
  /** Epoch ms. */
  expiresAt: number;
}

/** An upload grant's PUT: the link, and the headers the PUT must carry exactly. */
export interface UploadLink extends StorageLink {
  headers: Record<string, string>;
}

/** What the links are made with. */
export interface StorageLinksOptions {
  store: ObjectStore;
  /** Lifetime of a download link, in seconds (`STORAGE_URL_TTL_SECONDS`). */
  urlTtlSeconds: number;
  /** Lifetime of an upload grant's link, in seconds (`STORAGE_UPLOAD_GRANT_TTL_SECONDS`). */
  grantTtlSeconds: number;
  /** The key of this server's own signed links (`STORAGE_SIGNING_SECRET`); a random one per process when unset. */
  secret?: string | undefined;
  /** Clock, epoch ms. */
  now: () => number;
}

/**
 * The origin of a request, as a client reached this server: its scheme and `Host` (behind a TLS-terminating proxy,
 * forward `Host` unchanged).
 * @param req - the request
 */
export function requestOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** Makes the links of one deployment. */
export class StorageLinks {
  /** The signing key of this server's own links. */
  readonly secret: Uint8Array;

  /** @param options - store, lifetimes, signing key and clock */
  constructor(readonly options: StorageLinksOptions) {
    this.secret = options.secret ? new TextEncoder().encode(options.secret) : new Uint8Array(randomBytes(32));
  }

  /** The store the links point into. */
  get store(): ObjectStore {
    return this.options.store;
  }

  /**
   * A link anyone may GET the object at until it expires.
   * @param key - the object
   * @param origin - this server's origin ({@link requestOrigin}), for the filesystem backend's link
   * @throws StorageUnavailableError (503) when the URL cannot be presigned
   */
  async download(key: ObjectKey, origin: string): Promise<StorageLink> {
    const expiresAt = wholeSeconds(this.options.now() + this.options.urlTtlSeconds * 1000);
    const presigned = await this.options.store.signedUrl(key, this.options.urlTtlSeconds);
    if (presigned) return { url: presigned, expiresAt };
    return {
      url: this.sign({ method: 'GET', path: storagePath(key), expires: seconds(expiresAt) }, origin),
      expiresAt,
    };
  }

  /**
   * A link to PUT the object once, with exactly `size` bytes of `contentType`, until it expires.
   * @param key - the object to create
   * @param size - the body's size, in bytes
   * @param contentType - the body's media type
   * @param origin - this server's origin, for the filesystem backend's link
   * @throws StorageUnavailableError (503) when the URL cannot be presigned
   */
  async upload(key: ObjectKey, size: number, contentType: string, origin: string): Promise<UploadLink> {
    const expiresAt = wholeSeconds(this.options.now() + this.options.grantTtlSeconds * 1000);
    const grant = { size, contentType, expiresInSeconds: this.options.grantTtlSeconds };
    const presigned = await this.options.store.signedPut(key, grant);
    if (presigned) return { ...presigned, expiresAt };
    const signed: SignedRequest = {
      method: 'PUT',
      path: storagePath(key),
      expires: seconds(expiresAt),
      size,
      contentType,
    };
    return {
      url: this.sign(signed, origin),
      headers: { 'Content-Type': contentType, 'If-None-Match': '*' },
      expiresAt,
    };
  }

  private sign(request: SignedRequest, origin: string): string {
    const query = new URLSearchParams({
      [SIGNATURE_PARAMETERS.expires]: String(request.expires),
      [SIGNATURE_PARAMETERS.signature]: signRequest(request, this.secret),
    });
    return `${origin}${request.path}?${query.toString()}`;
  }
}

/** The path of an object on this server's storage route. */
function storagePath(key: ObjectKey): string {
  return `${STORAGE_ROUTE_PREFIX}${objectPath(key)}`;
}

/** Epoch ms to whole epoch seconds. */
function seconds(epochMs: number): number {
  return Math.floor(epochMs / 1000);
}

/** Epoch ms rounded down to a whole second (a link's expiry is signed in seconds; it never outlives what it says). */
function wholeSeconds(epochMs: number): number {
  return seconds(epochMs) * 1000;
}
