/**
 * The signature of the links this server signs itself (docs/uploads.md#signed-links): where the object store has no
 * presigned URLs (the filesystem backend), a download link and an upload grant's PUT are URLs of this server whose
 * query carries an expiry and an HMAC-SHA256 over the method, the path, the expiry and, for a PUT, the exact size and
 * media type of the body. Whoever holds the URL may make that one request until it expires; changing any part of it
 * breaks the signature.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signature covers. */
export interface SignedRequest {
  method: 'GET' | 'PUT';
  /** The URL's path, e.g. `/v1/storage/acme/uploads/9f…-cv.pdf`. */
  path: string;
  /** When the link stops working, epoch seconds. */
  expires: number;
  /** PUT: the body's exact size, in bytes (its `Content-Length`). */
  size?: number;
  /** PUT: the body's media type (its `Content-Type`). */
  contentType?: string;
}

/** The query parameters of a signed link. */
export const SIGNATURE_PARAMETERS = { expires: 'X-Mthds-Expires', signature: 'X-Mthds-Signature' } as const;

function canonical(request: SignedRequest): string {
  return [request.method, request.path, request.expires, request.size ?? '', request.contentType ?? ''].join('\n');
}

/**
 * Sign a request.
 * @param request - method, path, expiry and (PUT) size and media type
 * @param secret - the signing key (`STORAGE_SIGNING_SECRET`)
 * @returns the signature, lower-case hex
 */
export function signRequest(request: SignedRequest, secret: Uint8Array): string {
  return createHmac('sha256', secret).update(canonical(request)).digest('hex');
}

/**
 * Whether a signature is the one of a request (compared in constant time).
 * @param request - the request as received
 * @param signature - the signature its query carried
 * @param secret - the signing key
 */
export function verifySignature(request: SignedRequest, signature: string, secret: Uint8Array): boolean {
  const expected = Buffer.from(signRequest(request, secret), 'hex');
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
