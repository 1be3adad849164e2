/**
 * `POST /v1/resolve-storage-url` and `POST /v1/resolve-storage-url/bulk` (docs/uploads.md#resolving-references): a
 * `pipelex-storage://` reference (or the earlier `mthds-storage:` spelling) the caller may read becomes a link that
 * needs no credential, valid `STORAGE_URL_TTL_SECONDS`. The single route answers a refusal as a problem (422
 * `invalid_storage_uri`, 403 for another owner's); the bulk route answers one verdict per reference, in request order,
 * duplicates kept, each refusal in its item. A reference is signed without reading its object: one that is not stored
 * answers 404 at its link.
 */
import { type Request, type Response, Router } from 'express';
import { lookup } from 'mime-types';
import { z } from 'zod';
import { InvalidStorageUriError, StorageOwnershipMismatchError } from '../../shared/errors/index.js';
import { type ObjectKey, parseStorageUri } from '../../shared/storage/index.js';
import { type BulkResolvedItem, type ResolvedStorageUrl, refusedItem, resolvedItem } from '../../shared/wire/index.js';
import { type JsonBodyLimits, jsonBody } from '../body/json-body.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { BULK_RESOLVED_STORAGE_URLS, RESOLVED_STORAGE_URL } from '../openapi/schemas/storage.js';
import { parseRequest } from '../request-schema.js';
import { mayUseScope } from '../run-ownership.js';
import { sendJson } from '../send-json.js';
import { requestOrigin, type StorageLinks } from '../storage-links.js';

/** Most references of one bulk request. */
const MAX_BULK_REFERENCES = 100;

const REFERENCE = z
  .string()
  .min(1)
  .max(2048)
  .meta({ description: 'A storage reference, `pipelex-storage://<owner>/<leaf>/<name>`.' });

const RESOLVE_BODY = z.object({ uri: REFERENCE }).meta({ id: 'ResolveStorageUrlRequest' });
const BULK_BODY = z
  .object({ uris: z.array(REFERENCE).max(MAX_BULK_REFERENCES) })
  .meta({ id: 'BulkResolveStorageUrlRequest' });

/** `POST /v1/resolve-storage-url`, as the OpenAPI document describes it. */
export const RESOLVE_STORAGE_URL_ROUTE: RouteSpec = {
  method: 'post',
  path: '/v1/resolve-storage-url',
  operationId: 'resolve_storage_url_v1_resolve_storage_url_post',
  tag: 'storage',
  summary: 'Resolve a storage reference',
  description:
    'A link to a `pipelex-storage://` reference the caller may read, valid `STORAGE_URL_TTL_SECONDS`, that needs no credential (docs/uploads.md#resolving-references).',
  body: {
    id: 'ResolveStorageUrlRequest',
    schema: RESOLVE_BODY,
    example: { uri: 'pipelex-storage://org_1/uploads/0f2c-cv.pdf' },
  },
  responses: { 200: { description: 'The link.', schema: RESOLVED_STORAGE_URL } },
  problems: [
    'ValidationError',
    'InvalidJSON',
    'InvalidStorageUriError',
    'StorageOwnershipMismatchError',
    'StorageUnavailableError',
  ],
};

/** `POST /v1/resolve-storage-url/bulk`, as the OpenAPI document describes it. */
export const RESOLVE_STORAGE_URLS_ROUTE: RouteSpec = {
  method: 'post',
  path: '/v1/resolve-storage-url/bulk',
  operationId: 'resolve_storage_urls_v1_resolve_storage_url_bulk_post',
  tag: 'storage',
  summary: 'Resolve storage references',
  description:
    'Up to 100 references at once: one item per reference, in request order, a refused one carrying `error` (`invalid_storage_uri`, `forbidden`) and null link fields (docs/uploads.md#resolving-references).',
  body: {
    id: 'BulkResolveStorageUrlRequest',
    schema: BULK_BODY,
    example: { uris: ['pipelex-storage://org_1/uploads/0f2c-cv.pdf'] },
  },
  responses: { 200: { description: 'The verdicts.', schema: BULK_RESOLVED_STORAGE_URLS } },
  problems: ['ValidationError', 'InvalidJSON', 'StorageUnavailableError'],
};

/** What the routes need. */
export interface ResolveStorageRouterOptions extends JsonBodyLimits {
  /** Where a large body is decoded. */
  diagnostics: DiagnosticsPool;
  /** Signs the links. */
  links: StorageLinks;
}

/**
 * The key a caller may read through a reference.
 * @throws InvalidStorageUriError (422); StorageOwnershipMismatchError (403) for another owner's
 */
function readableKey(reference: string, res: Response): ObjectKey {
  const key = parseStorageUri(reference);
  if (!mayUseScope(res.locals.identity, key.scope))
    throw new StorageOwnershipMismatchError(
      `The reference '${reference}' names an object of '${key.scope}', which is not yours.`,
    );
  return key;
}

async function resolved(
  key: ObjectKey,
  options: ResolveStorageRouterOptions,
  req: Request,
): Promise<ResolvedStorageUrl> {
  const link = await options.links.download(key, requestOrigin(req));
  return {
    url: link.url,
    expires_at: new Date(link.expiresAt).toISOString(),
    content_type: lookup(key.name) || null,
  };
}

/** The verdict of one reference of a bulk request. */
async function verdict(
  reference: string,
  options: ResolveStorageRouterOptions,
  req: Request,
  res: Response,
): Promise<BulkResolvedItem> {
  let key: ObjectKey;
  try {
    key = readableKey(reference, res);
  } catch (error) {
    if (error instanceof StorageOwnershipMismatchError)
      return refusedItem(reference, { code: 'forbidden', detail: error.message });
    if (error instanceof InvalidStorageUriError)
      return refusedItem(reference, { code: 'invalid_storage_uri', detail: error.message });
    throw error;
  }
  return resolvedItem(reference, await resolved(key, options, req));
}

/**
 * Router serving the two resolve routes.
 * @param options - body limits and the links
 */
export function resolveStorageRouter(options: ResolveStorageRouterOptions): Router {
  const router = Router();
  const body = jsonBody(options, 'typed', options.diagnostics);
  router.post(RESOLVE_STORAGE_URL_ROUTE.path, body, async (req, res) => {
    const { uri } = parseRequest(RESOLVE_BODY, req.body);
    sendJson(res, 200, await resolved(readableKey(uri, res), options, req));
  });
  router.post(RESOLVE_STORAGE_URLS_ROUTE.path, body, async (req, res) => {
    const { uris } = parseRequest(BULK_BODY, req.body);
    const items: BulkResolvedItem[] = [];
    for (const uri of uris) items.push(await verdict(uri, options, req, res));
    sendJson(res, 200, { items });
  });
  return router;
}
