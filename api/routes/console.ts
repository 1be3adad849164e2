/**
 * The method console (docs/console.md): a single-page application for people, served at `/console` from the static
 * files `npm run build` produces (`node scripts/build.mjs`, which builds `console/` with Vite). Outside
 * authentication like `/docs`: the page itself holds no data, and every call it makes to `/v1` carries the key or token
 * the person enters, as a bearer.
 *
 * - `GET /console/assets/<file>`: the bundle's files, whose names carry a content hash, cached for a year as immutable.
 * - `GET /console` and every other path under it: the application's `index.html` (the client-side router reads the
 *   path), revalidated on every load (`no-cache`) so a new build is picked up at once.
 *
 * Every answer carries a Content-Security-Policy allowing this origin only. When the static files are missing (the API
 * running from sources without a build), the page answers 503 `ConsoleNotBuiltError` saying how to build them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response, Router } from 'express';
import { ConsoleNotBuiltError } from '../../shared/errors/index.js';

/** Path the console is served under. */
const CONSOLE_PATH = '/console';

/**
 * Where the built console lies: `console/dist/` of the repository when the API runs from sources, `dist/console/dist/`
 * beside the compiled modules in a production build (both two folders above this module).
 */
const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../console/dist/', import.meta.url));

/**
 * Same origin only. React Flow positions its nodes with inline style attributes, hence `'unsafe-inline'` for styles
 * (never for scripts); images may be `data:` or `blob:` URLs the page makes itself (a rendered output, a preview).
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** One year, in seconds: the lifetime of a file whose name changes with its content. */
const IMMUTABLE_MAX_AGE_S = 365 * 24 * 60 * 60;

function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/**
 * Router serving the console.
 * @param directory - the built console (its `index.html` and `assets/`); the build's place by default
 * @throws ConsoleNotBuiltError (503, through the problem handler) on a page request when `index.html` is missing
 */
export function consoleRouter(directory: string = DEFAULT_CONSOLE_DIR): Router {
  const router = Router();
  const index = join(directory, 'index.html');
  router.use(
    `${CONSOLE_PATH}/assets`,
    (_req, res, next) => {
      securityHeaders(res);
      next();
    },
    express.static(join(directory, 'assets'), {
      index: false,
      redirect: false,
      immutable: true,
      maxAge: IMMUTABLE_MAX_AGE_S * 1000,
    }),
    // an asset the build does not have is an unknown route (404), never the page
    (_req, _res, next) => next('router'),
  );
  const page = (_req: Request, res: Response) => {
    if (!existsSync(index))
      throw new ConsoleNotBuiltError(
        'The console was not built: run `npm run build` (or `node scripts/build.mjs --console` beside the sources) and reload.',
      );
    securityHeaders(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  };
  router.get(CONSOLE_PATH, page);
  router.get(`${CONSOLE_PATH}/*path`, page);
  return router;
}
