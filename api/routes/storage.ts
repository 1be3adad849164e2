/**
 * `GET /v1/storage/{scope}/{leaf}/{name}`: a stored document or image of a run (`assets/` or `generated/`) or an
 * upload (`uploads/`), for the callers that may use its scope (docs/storage.md#reading-objects; the scope rule of
 * docs/run-ownership.md). On the
 * filesystem backend it answers the bytes; on the S3 backend it redirects (302) to a presigned URL. Paths are checked
 * before anything is read: traversal, absolute, percent-encoded and Unicode forms are 422 `StoragePathError`, a scope
 * the caller may not use is 403 `StorageOwnershipMismatchError`.
 */
import { Router } from 'express';
import { z } from 'zod';
import { StorageObjectNotFoundError } from '../../shared/errors/index.js';
import { type ObjectStore, parseObjectPath } from '../../shared/storage/index.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { runOwnership } from '../run-ownership.js';

/** The route, as the OpenAPI document describes it. */
export const STORAGE_OBJECT_ROUTE: RouteSpec = {
  method: 'get',
  path: '/v1/storage/{scope}/{leaf}/{name}',
  operationId: 'get_storage_object_v1_storage_get',
  tag: 'runs',
  summary: 'Stored run object',
  description:
    'A document or image a run stored under its `storage_scope` (`assets/`: large inline inputs; `generated/`: generated media), or a caller’s upload (`uploads/`), as linked from run results. `scope` is 1–3 path-safe segments. The filesystem backend answers the bytes; the S3 backend redirects to a presigned URL (docs/storage.md). With `X-Mthds-Expires` and `X-Mthds-Signature` in the query (a signed link of the filesystem backend, docs/uploads.md#signed-links) it needs no credential.',
  params: z.object({
    scope: z.string().meta({ description: 'The run’s `storage_scope` (1–3 segments, `/`-separated).' }),
    leaf: z.enum(['assets', 'generated', 'uploads']),
    name: z.string().meta({ description: 'The object’s name, e.g. `<sha256>.png`.' }),
  }),
  responses: {
    200: { description: 'The object’s bytes (filesystem backend).', contentType: 'application/octet-stream' },
    302: { description: 'A presigned URL of the object (S3 backend).' },
  },
  problems: [
    'ValidationError',
    'StoragePathError',
    'StorageOwnershipMismatchError',
    'StorageObjectNotFoundError',
    'StorageUnavailableError',
  ],
};

/** What the route reads. */
export interface StorageRouterOptions {
  store: ObjectStore;
  /** Lifetime of a presigned URL, in seconds (`STORAGE_URL_TTL_SECONDS`). */
  urlTtlSeconds: number;
}

/**
 * Router serving stored run objects.
 * @param options - the object store and the presigned URLs' lifetime
 */
export function storageRouter(options: StorageRouterOptions): Router {
  const router = Router();
  router.get('/v1/storage/*scope/:leaf/:name', async (req, res) => {
    const { scope, leaf, name } = req.params as { scope: string[]; leaf: string; name: string };
    const key = parseObjectPath([...scope, leaf, name].join('/'));
    runOwnership(res.locals.identity, key.scope);
    if (key.leaf !== 'assets' && key.leaf !== 'generated' && key.leaf !== 'uploads')
      throw new StorageObjectNotFoundError(
        'Only assets/, generated/ and uploads/ objects are served; read results at /v1/runs/{id}/results.',
      );
    const signed = await options.store.signedUrl(key, options.urlTtlSeconds);
    if (signed) {
      res.redirect(302, signed);
      return;
    }
    const object = await options.store.get(key);
    if (!object) throw new StorageObjectNotFoundError(`No object is stored at ${key.scope}/${key.leaf}/${key.name}.`);
    res
      .status(200)
      .setHeader('Content-Type', object.contentType)
      .setHeader('X-Content-Type-Options', 'nosniff')
      .setHeader('Content-Security-Policy', "default-src 'none'; sandbox")
      .setHeader('Cache-Control', 'private, max-age=3600')
      .end(Buffer.from(object.body));
  });
  return router;
}
