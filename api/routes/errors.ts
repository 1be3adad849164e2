/**
 * `GET /errors/` and `GET /errors/{kebab-name}/`: this runner's own error documentation, where the `type` URI of its
 * problem documents points (`{ERROR_DOCS_URL}/errors/<kebab-name>/`, spec §7.1; docs/errors.md). Outside `/v1` and
 * outside auth, like `/health`: documentation of the error classes reveals nothing of a deployment. A path without its
 * trailing slash is redirected to it (301), so the pages' relative links resolve.
 */
import { posix } from 'node:path';
import { type Request, type Response, Router } from 'express';
import { ErrorPageNotFoundError } from '../../shared/errors/index.js';
import type { ErrorPages } from '../error-pages.js';

/** Send a page, or a redirect to its path with the trailing slash. */
function sendPage(req: Request, res: Response, html: string): void {
  if (!req.path.endsWith('/')) {
    res.redirect(301, `${posix.basename(req.path)}/`);
    return;
  }
  res
    .status(200)
    .set({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'none'" })
    .end(html);
}

/**
 * Router serving the error pages.
 * @param pages - the pages, built on first use
 * @throws ErrorPageNotFoundError (404) through the problem handler for a name no error class has
 */
export function errorsRouter(pages: () => ErrorPages): Router {
  const router = Router();
  router.get('/errors', (req, res) => sendPage(req, res, pages().index));
  router.get('/errors/:slug', (req, res) => {
    const html = pages().bySlug.get(req.params.slug);
    if (html === undefined)
      throw new ErrorPageNotFoundError(
        `No error type '${req.params.slug}' is documented. See GET /errors/ for the list.`,
      );
    sendPage(req, res, html);
  });
  return router;
}
