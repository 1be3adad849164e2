/**
 * `GET /v1/openapi.json`: the OpenAPI 3.1 document of this deployment, generated from the routes the app mounts
 * (api/openapi/). Behind authentication like every `/v1` route (spec §5); the `/docs` page asks for a token to read
 * it when authentication is on (docs/api.md#api-reference-docs-and-get-v1openapijson).
 */
import { Router } from 'express';
import { z } from 'zod';
import { type OpenApiOptions, openApiDocument } from '../openapi/openapi-document.js';
import type { RouteRegistry } from '../openapi/route-registry.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { sendEncodedJson } from '../send-json.js';

/** Path of the OpenAPI document. */
export const OPENAPI_PATH = '/v1/openapi.json';

/** `GET /v1/openapi.json`, as the document describes itself. */
export const OPENAPI_ROUTE: RouteSpec = {
  method: 'get',
  path: OPENAPI_PATH,
  operationId: 'get_openapi_v1_openapi_json_get',
  tag: 'discovery',
  summary: 'OpenAPI document',
  description:
    'This document: every route this deployment serves, with its request schema (the one the route validates with), its responses and its problem documents. Read it interactively at `/docs`.',
  responses: {
    200: {
      description: 'An OpenAPI 3.1 document.',
      schema: z
        .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })
        .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.' }),
    },
  },
  problems: [],
};

/**
 * Router serving the document, generated at its first request (every route is described by then) and kept.
 * @param routes - the app's route registry
 * @param options - what of the deployment the document says
 * @throws (at the first request, through the problem handler) Error when two routes describe the same method and path
 */
export function openApiRouter(routes: RouteRegistry, options: OpenApiOptions): Router {
  const router = Router();
  let encoded: Uint8Array | undefined;
  router.get(OPENAPI_ROUTE.path, (_req, res) => {
    encoded ??= Buffer.from(JSON.stringify(openApiDocument(routes.routes, options)), 'utf8');
    sendEncodedJson(res, 200, encoded);
  });
  return router;
}
