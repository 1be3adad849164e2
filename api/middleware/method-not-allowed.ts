/**
 * 405 for a known path asked with a method none of its routes serves (RFC 9110 §15.5.6): a `MethodNotAllowed` problem
 * with `Allow` listing the methods that path does serve, as the router's own `OPTIONS` answer lists them (sorted,
 * upper case, `HEAD` wherever `GET` is). A path no route matches falls through to the 404.
 *
 * The methods are found by walking the app's router stack the way the router matches a request: each layer whose
 * pattern matches the path, into mounted routers with the mount prefix trimmed. The walk runs only for requests no
 * route answered, so it costs nothing on the served routes.
 */
import type { RequestHandler } from 'express';
import { MethodNotAllowed } from '../../shared/errors/index.js';

/** A layer of an Express 5 router stack (router 2.x): a route, or a middleware that may be a mounted router. */
interface StackLayer {
  route?: { methods: Record<string, boolean | undefined> };
  handle: unknown;
  match(path: string): false | { path: string };
}

/** Something with a layer stack: the app's router, or a router mounted in it. */
interface LayeredRouter {
  stack: StackLayer[];
}

function isRouter(handle: unknown): handle is LayeredRouter {
  return typeof handle === 'function' && Array.isArray((handle as Partial<LayeredRouter>).stack);
}

/**
 * Collect the methods the routes of `router` serve for `path`.
 * @returns false when a matching route takes every method (`router.all`)
 */
function collectMethods(router: LayeredRouter, path: string, methods: Set<string>): boolean {
  for (const layer of router.stack) {
    let match: ReturnType<StackLayer['match']>;
    try {
      match = layer.match(path);
    } catch {
      continue;
    }
    if (!match) continue;
    if (layer.route) {
      for (const [method, served] of Object.entries(layer.route.methods)) {
        if (!served) continue;
        if (method === '_all') return false;
        methods.add(method.toUpperCase());
      }
    } else if (isRouter(layer.handle)) {
      const rest = path.slice(match.path.length);
      if (!collectMethods(layer.handle, rest.startsWith('/') ? rest : `/${rest}`, methods)) return false;
    }
  }
  return true;
}

/**
 * The methods an app serves on a path, as `Allow` lists them.
 * @param router - the app's router (`app.router`)
 * @param path - the request path, without the query string
 * @returns the sorted methods, empty when no route matches the path (or when one takes every method)
 */
function allowedMethods(router: LayeredRouter, path: string): string[] {
  const methods = new Set<string>();
  if (!collectMethods(router, path, methods)) return [];
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/**
 * Middleware placed after every route and before the unknown-route 404.
 * @throws MethodNotAllowed (405) through `next`, with `Allow` set, when the path is served with other methods
 * @see docs/errors.md, RFC 9110 §15.5.6
 */
export const methodNotAllowed: RequestHandler = (req, res, next) => {
  const allowed = allowedMethods(req.app.router as unknown as LayeredRouter, req.path);
  if (allowed.length === 0 || allowed.includes(req.method)) {
    next();
    return;
  }
  res.setHeader('Allow', allowed.join(', '));
  next(new MethodNotAllowed(`${req.method} is not served on ${req.path}; use ${allowed.join(', ')}.`));
};
