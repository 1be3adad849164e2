/**
 * This server's signed storage links (docs/uploads.md#signed-links), served without authentication, before the body
 * size guard: the link is the credential. On the filesystem backend they stand where the S3 backend has presigned
 * URLs:
 *
 * - `GET /v1/storage/{scope}/{leaf}/{name}?X-Mthds-Expires=…&X-Mthds-Signature=…`: a download link (a resolved
 *   reference, a `public_url` in results). Without the signature the request goes on to the authenticated storage route.
 * - `PUT /v1/storage/{scope}/uploads/{name}?…`: an upload grant's PUT, create-only, of exactly the signed size and
 *   media type.
 *
 * Refusals are S3's, as the clients of presigned URLs read them: an XML `<Error>` with `<Code>` and `<Message>` (403
 * `AccessDenied` for an expired or unsigned link, 403 `SignatureDoesNotMatch` when the method, path, size or media
 * type differ from what was signed, 412 `PreconditionFailed` when the object was already uploaded, 400
 * `IncompleteBody` for a body shorter than its `Content-Length`, 404 `NoSuchKey`).
 */
import { createHash } from 'node:crypto';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { z } from 'zod';
import {
  type ObjectKey,
  parseObjectPath,
  SIGNATURE_PARAMETERS,
  type SignedRequest,
  verifySignature,
} from '../../shared/storage/index.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { STORAGE_ROUTE_PREFIX, type StorageLinks } from '../storage-links.js';

/** The PUT of an upload grant, as the OpenAPI document describes it. */
export const SIGNED_UPLOAD_ROUTE: RouteSpec = {
  method: 'put',
  path: '/v1/storage/{scope}/{leaf}/{name}',
  operationId: 'put_signed_upload_v1_storage_put',
  tag: 'storage',
  summary: 'PUT an upload (signed link)',
  description:
    'The filesystem backend’s upload grant: the raw bytes, with exactly the grant’s `headers`, to the grant’s `url` (its query carries `X-Mthds-Expires` and `X-Mthds-Signature`; no `Authorization`). Create-only and of exactly the granted size and media type. Refusals are S3 XML errors (`AccessDenied`, `SignatureDoesNotMatch`, `PreconditionFailed`, `IncompleteBody`): docs/uploads.md#the-put.',
  public: true,
  params: z.object({
    scope: z.string().meta({ description: 'The uploader’s own id.' }),
    leaf: z.enum(['uploads']),
    name: z.string(),
  }),
  responses: { 200: { description: 'Stored; `ETag` is the MD5 of the bytes.' } },
  problems: [],
};

/** An S3-style refusal. */
class S3Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

function sendRefusal(res: Response, refusal: S3Refusal, resource: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${escapeXml(refusal.message)}</Message><Resource>${escapeXml(resource)}</Resource><RequestId>${escapeXml(String(res.locals.requestId ?? ''))}</RequestId></Error>`;
  res.status(refusal.status).setHeader('Content-Type', 'application/xml').end(body);
}

/**
 * The key of a link's path (as sent: an encoded character is refused, never decoded), refused as S3 would refuse a key
 * it does not hold.
 */
function keyOfPath(path: string): ObjectKey {
  try {
    return parseObjectPath(path);
  } catch {
    throw new S3Refusal(403, 'AccessDenied', 'The link names no object a signed link may reach.');
  }
}

/** Check a link's expiry and signature. */
function checkSignature(req: Request, request: Omit<SignedRequest, 'expires'>, links: StorageLinks): void {
  const expires = Number(req.query[SIGNATURE_PARAMETERS.expires]);
  const signature = req.query[SIGNATURE_PARAMETERS.signature];
  if (!Number.isSafeInteger(expires) || typeof signature !== 'string')
    throw new S3Refusal(403, 'AccessDenied', 'The request is not signed: use the URL of an upload grant or a link.');
  if (expires * 1000 <= links.options.now()) throw new S3Refusal(403, 'AccessDenied', 'Request has expired.');
  if (!verifySignature({ ...request, expires }, signature, links.secret))
    throw new S3Refusal(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided: send exactly the URL and headers of the grant, and a body of its size.',
    );
}

/** The body of a PUT, exactly `size` bytes. */
async function readExactly(req: Request, size: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > size) throw new S3Refusal(400, 'IncompleteBody', 'The body is longer than its Content-Length.');
    chunks.push(chunk);
  }
  if (length !== size)
    throw new S3Refusal(400, 'IncompleteBody', `The body is ${length} bytes; its Content-Length says ${size}.`);
  return new Uint8Array(Buffer.concat(chunks, length));
}

/** Whether a request carries a link's signature. */
function isSigned(req: Request): boolean {
  return req.query[SIGNATURE_PARAMETERS.signature] !== undefined;
}

/**
 * Router serving the signed links.
 * @param links - the store, the signing key and the clock
 */
export function signedStorageRouter(links: StorageLinks): Router {
  const router = Router();
  const path = `${STORAGE_ROUTE_PREFIX}*scope/:leaf/:name`;
  const refusing =
    (handle: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) =>
      handle(req, res).catch((error: unknown) => {
        if (error instanceof S3Refusal) sendRefusal(res, error, req.path);
        else next(error);
      });
  // a middleware, not a route: the authenticated GET of `storage.ts` is the route; this only takes its signed requests
  router.use(STORAGE_ROUTE_PREFIX, (req, res, next) => {
    if (req.method !== 'GET' || !isSigned(req)) {
      next();
      return;
    }
    refusing(async () => {
      const key = keyOfPath(req.path.slice(1));
      checkSignature(req, { method: 'GET', path: `${req.baseUrl}${req.path}` }, links);
      if (key.leaf !== 'uploads' && key.leaf !== 'assets' && key.leaf !== 'generated')
        throw new S3Refusal(403, 'AccessDenied', 'The link names no object a signed link may reach.');
      const object = await links.store.get(key);
      if (!object) throw new S3Refusal(404, 'NoSuchKey', 'The specified key does not exist.');
      res
        .status(200)
        .setHeader('Content-Type', object.contentType)
        .setHeader('X-Content-Type-Options', 'nosniff')
        .setHeader('Content-Security-Policy', "default-src 'none'; sandbox")
        .setHeader('Cache-Control', 'private, no-store')
        .end(Buffer.from(object.body));
    })(req, res, next);
  });
  router.put(
    path,
    refusing(async (req, res) => {
      const key = keyOfPath(req.path.slice(STORAGE_ROUTE_PREFIX.length));
      if (key.leaf !== 'uploads') throw new S3Refusal(403, 'AccessDenied', 'Only uploads/ objects are PUT.');
      const declared = req.get('content-length');
      if (declared === undefined || !/^\d+$/.test(declared))
        throw new S3Refusal(411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
      const size = Number(declared);
      const contentType = req.get('content-type') ?? '';
      checkSignature(req, { method: 'PUT', path: req.path, size, contentType }, links);
      const body = await readExactly(req, size);
      if (!(await links.store.create(key, body, contentType)))
        throw new S3Refusal(
          412,
          'PreconditionFailed',
          'At least one of the pre-conditions you specified did not hold: the grant was already used.',
        );
      res
        .status(200)
        .setHeader('ETag', `"${createHash('md5').update(body).digest('hex')}"`)
        .end();
    }),
  );
  return router;
}
