/**
 * The human entry points, outside `/v1` and outside authentication: `GET /docs`, an interactive API reference
 * (Swagger UI, from the `swagger-ui-dist` package, served by this server: the page loads nothing from elsewhere, and
 * its Content-Security-Policy forbids it to), and `GET /`, which sends a browser to `/docs` and answers other clients
 * with the service banner. The page reads the OpenAPI document from `GET /v1/openapi.json` (docs/api.md
 * "API reference").
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';
import type { z } from 'zod';
import type { RouteSpec } from '../openapi/route-spec.js';
import { SERVICE_IDENTITY } from '../openapi/schemas/service.js';
import { sendJson } from '../send-json.js';
import { OPENAPI_PATH } from './openapi.js';

/** Path of the API reference page. */
const DOCS_PATH = '/docs';

/** This page's own files (HTML, script, style), beside the compiled module. */
const PAGE_DIR = fileURLToPath(new URL('../docs-page/', import.meta.url));
/** Swagger UI's prebuilt browser files. */
const SWAGGER_UI_DIR = dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')));

/** The files under `/docs/assets/`, each from its folder: nothing else of either folder is served. */
const ASSETS = new Map([
  ['swagger-ui-bundle.js', SWAGGER_UI_DIR],
  ['swagger-ui.css', SWAGGER_UI_DIR],
  ['favicon-32x32.png', SWAGGER_UI_DIR],
  ['docs-page.js', PAGE_DIR],
  ['docs-page.css', PAGE_DIR],
]);

/**
 * Same-origin only: scripts, styles, images and requests ("Try it out") may reach this server and nothing else.
 * Swagger UI sets inline style attributes and draws some icons as `data:` images.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** `GET /`, as the OpenAPI document describes it. */
export const ROOT_ROUTE: RouteSpec = {
  method: 'get',
  path: '/',
  operationId: 'root__get',
  tag: 'health',
  summary: 'Service identity banner',
  description:
    'Who answers on this origin, and where the API reference is. A browser (asking for HTML) is redirected to `/docs`. Outside authentication.',
  public: true,
  infallible: true,
  responses: {
    200: { description: 'The service banner.', schema: SERVICE_IDENTITY },
    302: { description: 'To the API reference page, for a client asking for HTML.', headers: ['Location'] },
  },
  problems: [],
};

/** Router serving `GET /`, `GET /docs` and the page's files under `/docs/assets/`. */
export function docsPageRouter(): Router {
  const router = Router();
  router.get(ROOT_ROUTE.path, (req, res) => {
    if (req.accepts(['json', 'html']) === 'html') {
      res.redirect(302, DOCS_PATH);
      return;
    }
    const body: z.infer<typeof SERVICE_IDENTITY> = {
      message: 'MTHDS runner',
      docs_url: DOCS_PATH,
      openapi_url: OPENAPI_PATH,
    };
    sendJson(res, 200, body);
  });
  router.get(DOCS_PATH, (_req, res) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.sendFile(join(PAGE_DIR, 'index.html'));
  });
  router.get(`${DOCS_PATH}/assets/:file`, (req, res, next) => {
    const folder = ASSETS.get(req.params.file);
    if (folder === undefined) next();
    else res.sendFile(join(folder, req.params.file), { maxAge: '1h' });
  });
  return router;
}
