/**
 * The HTTP server span of each request (docs/tracing.md#http), while tracing is on: continued from the caller's W3C
 * `traceparent` header when it sends a valid one (so a caller's own trace contains the run it starts), else the root
 * of a new trace; active for the rest of the request, so the run's enqueue, the log lines and the run's record belong
 * to it; named `{method} {route}` once the route is known. Every response carries the span's `traceparent`.
 *
 * Hand-made rather than `@opentelemetry/instrumentation-http`/`-express`: those patch modules as they are loaded,
 * which the production build's bundled Express (docs/architecture.md#startup) never is, and the ESM entries would
 * need a loader hook; one middleware gives the same span on every build.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import { serviceTracer, traceParentOf, tracingOn } from '../../shared/observability/index.js';

/** Middleware: the request's server span and its `traceparent` response header; nothing while tracing is off. */
export const httpTracing: RequestHandler = (req, res, next) => {
  if (!tracingOn()) {
    next();
    return;
  }
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = serviceTracer().startSpan(
    req.method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': req.method,
        'url.path': req.path,
        'url.scheme': req.protocol,
        ...(req.socket.remoteAddress ? { 'client.address': req.socket.remoteAddress } : {}),
      },
    },
    parent,
  );
  const active = trace.setSpan(parent, span);
  const traceParent = traceParentOf(active);
  if (traceParent) res.setHeader('traceparent', traceParent);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const path = (req.route as { path?: unknown } | undefined)?.path;
    if (typeof path === 'string') {
      const route = `${req.baseUrl}${path}`;
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('http.response.status_code', res.statusCode);
    if (typeof res.locals.requestId === 'string') span.setAttribute('mthds.request_id', res.locals.requestId);
    if (res.statusCode >= 500) {
      span.setAttribute('error.type', String(res.statusCode));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  };
  res.once('finish', end);
  res.once('close', end);
  // the body is read in the socket's callbacks: listeners added to the request and response run in the span's
  // context too, or the handler would go on outside it once the body is in
  context.bind(active, req);
  context.bind(active, res);
  context.with(active, next);
};
