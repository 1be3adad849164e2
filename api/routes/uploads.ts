/**
 * `POST /v1/upload` and `POST /v1/upload/grant` (docs/uploads.md): a caller stores a file under its own scope's
 * `uploads/` leaf and gets its `pipelex-storage://` reference, to name as the `url` of a Document or Image input. The
 * first route takes the bytes in the body (base64); the second answers a grant to PUT them once, straight to the
 * bucket on the S3 backend (a presigned create-only `PutObject`) or to this server's signed storage route on the
 * filesystem backend (`signed-storage.ts`). An upload belongs to its caller's own id: the organization of an API key,
 * the `user_id` of a token (docs/run-ownership.md).
 */
import { randomUUID } from 'node:crypto';
import { type Response, Router } from 'express';
import { extension, lookup } from 'mime-types';
import { z } from 'zod';
import { IdempotencyKeyReusedError, PayloadTooLarge } from '../../shared/errors/index.js';
import { type ObjectKey, storageUri } from '../../shared/storage/index.js';
import type { UploadAnswer, UploadGrantAnswer } from '../../shared/wire/index.js';
import { type JsonBodyLimits, jsonBody } from '../body/json-body.js';
import { firstUseOfKey } from '../idempotency.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { UPLOAD_ANSWER, UPLOAD_GRANT } from '../openapi/schemas/storage.js';
import { parseRequest } from '../request-schema.js';
import type { RunHistoryService } from '../run-history-service.js';
import { sendJson } from '../send-json.js';
import { requestOrigin, type StorageLinks } from '../storage-links.js';

const FILENAME = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^\p{Cc}/\\]+$/u, 'must hold no control character, / or \\')
  .meta({ description: 'The file’s name, e.g. `cv.pdf` (its extension and media type name the stored object).' });
const CONTENT_TYPE = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/, 'must be a media type, type/subtype')
  .max(127)
  .meta({ description: 'The file’s media type; from the name’s extension when absent.' });

/** Base64 of the standard alphabet, padded (checked in two linear scans: a long body must not backtrack). */
const BASE64_CHARACTERS = /^[A-Za-z0-9+/]*={0,2}$/;

const UPLOAD_BODY = z
  .object({
    filename: FILENAME,
    data: z
      .string()
      .refine((data) => data.length % 4 === 0 && BASE64_CHARACTERS.test(data), 'must be base64 (standard, padded)')
      .meta({ description: 'The file’s bytes, base64.' }),
    content_type: CONTENT_TYPE.optional(),
  })
  .meta({ id: 'UploadRequest', description: 'A file to store, inline.' });

const GRANT_BODY = z
  .object({
    filename: FILENAME,
    content_type: CONTENT_TYPE.optional(),
    size: z.number().int().min(0).meta({ description: 'The exact size the PUT will send, in bytes.' }),
  })
  .meta({ id: 'UploadGrantRequest', description: 'A file to PUT once.' });

/** `POST /v1/upload`, as the OpenAPI document describes it. */
export const UPLOAD_ROUTE: RouteSpec = {
  method: 'post',
  path: '/v1/upload',
  operationId: 'upload_v1_upload_post',
  tag: 'storage',
  summary: 'Upload a file',
  description:
    'Store a file (base64, at most `STORAGE_UPLOAD_MAX_MIB` decoded) under the caller’s `uploads/` and answer its `pipelex-storage://` reference, which a Document or Image input names as its `url` (docs/uploads.md).',
  body: {
    id: 'UploadRequest',
    schema: UPLOAD_BODY,
    example: { filename: 'hello.txt', data: 'aGVsbG8=', content_type: 'text/plain' },
  },
  responses: { 200: { description: 'The stored file’s reference.', schema: UPLOAD_ANSWER } },
  problems: ['ValidationError', 'InvalidJSON', 'StorageUnavailableError'],
};

/** `POST /v1/upload/grant`, as the OpenAPI document describes it. */
export const UPLOAD_GRANT_ROUTE: RouteSpec = {
  method: 'post',
  path: '/v1/upload/grant',
  operationId: 'upload_grant_v1_upload_grant_post',
  tag: 'storage',
  summary: 'Grant an upload',
  description:
    'A URL and headers to PUT one file of exactly `size` bytes, once, without a credential, before `expires_at`; the reference it will have is `uri`. A repeated `Idempotency-Key` is refused (a grant is never replayed). Refusals of the PUT are S3 XML errors (docs/uploads.md#the-put).',
  body: {
    id: 'UploadGrantRequest',
    schema: GRANT_BODY,
    example: { filename: 'cv.pdf', content_type: 'application/pdf', size: 1024 },
  },
  responses: { 200: { description: 'The grant.', schema: UPLOAD_GRANT } },
  problems: [
    'ValidationError',
    'InvalidJSON',
    'IdempotencyKeyReusedError',
    'IdempotencyKeyInUseError',
    'ControlPlaneUnavailableError',
    'StorageUnavailableError',
  ],
};

/** What the routes need. */
export interface UploadRouterOptions extends JsonBodyLimits {
  /** Where a large body is decoded. */
  diagnostics: DiagnosticsPool;
  /** The store and the links of grants. */
  links: StorageLinks;
  /** The largest upload, in bytes (`STORAGE_UPLOAD_MAX_MIB`). */
  maxUploadBytes: number;
  /** The control plane's services (idempotency keys), when served. */
  runHistory?: Promise<RunHistoryService>;
}

/** The media type of an upload: as declared, else from the name's extension. */
function mediaType(filename: string, declared: string | undefined): string {
  return declared?.toLowerCase() ?? (lookup(filename) || 'application/octet-stream');
}

/**
 * Where a caller's upload is stored: `<owner>/uploads/<random>-<stem>.<ext>`, the extension that of the media type
 * (the filesystem backend serves an object's type from it), else the name's.
 */
function uploadKey(owner: string, filename: string, contentType: string): ObjectKey {
  const dot = filename.lastIndexOf('.');
  const stem = (dot > 0 ? filename.slice(0, dot) : filename).replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 64);
  const given = dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
  const named = /^[a-z0-9]{1,16}$/.test(given) ? given : undefined;
  const ext = (named && lookup(named) === contentType ? named : extension(contentType)) || named || 'bin';
  const trimmed = stem.replace(/^-+|-+$/g, '');
  const id = randomUUID().replaceAll('-', '');
  return { scope: owner, leaf: 'uploads', name: `${id}${trimmed ? `-${trimmed}` : ''}.${ext}` };
}

function tooLarge(size: number, maxBytes: number): PayloadTooLarge {
  return new PayloadTooLarge(
    `The file is ${size} bytes, over the ${maxBytes}-byte upload limit (STORAGE_UPLOAD_MAX_MIB).`,
  );
}

/** The caller's own id: the owner of its uploads. */
function ownerOf(res: Response): string {
  return res.locals.identity.userId as string;
}

/**
 * Router serving `POST /v1/upload` and `POST /v1/upload/grant`.
 * @param options - body limits, links, the upload limit and the idempotency keys
 */
export function uploadRouter(options: UploadRouterOptions): Router {
  const router = Router();
  const body = jsonBody(options, 'typed', options.diagnostics);
  router.post(UPLOAD_ROUTE.path, body, async (req, res) => {
    const { filename, data, content_type: declared } = parseRequest(UPLOAD_BODY, req.body);
    const size = (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
    if (size > options.maxUploadBytes) throw tooLarge(size, options.maxUploadBytes);
    const contentType = mediaType(filename, declared);
    const key = uploadKey(ownerOf(res), filename, contentType);
    await options.links.store.put(key, new Uint8Array(Buffer.from(data, 'base64')), contentType);
    const answer: UploadAnswer = { uri: storageUri(key), filename };
    sendJson(res, 200, answer);
  });
  router.post(UPLOAD_GRANT_ROUTE.path, body, async (req, res) => {
    const { filename, content_type: declared, size } = parseRequest(GRANT_BODY, req.body);
    if (size > options.maxUploadBytes) throw tooLarge(size, options.maxUploadBytes);
    const contentType = mediaType(filename, declared);
    const key = uploadKey(ownerOf(res), filename, contentType);
    if (!(await firstUseOfKey(req, res, options.runHistory, 'POST /v1/upload/grant')))
      throw new IdempotencyKeyReusedError(
        'This Idempotency-Key already executed an upload grant; a grant is used once and never replayed: ask for a new one with a new key.',
      );
    const link = await options.links.upload(key, size, contentType, requestOrigin(req));
    const grant: UploadGrantAnswer = {
      uri: storageUri(key),
      url: link.url,
      headers: link.headers,
      expires_at: new Date(link.expiresAt).toISOString(),
      max_bytes: size,
    };
    sendJson(res, 200, grant);
  });
  return router;
}
