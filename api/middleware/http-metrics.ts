/**
 * Counts every HTTP request by route pattern, method and status, and times it (`mthds_http_*` metrics).
 */
import type { RequestHandler } from 'express';
import type { Metrics } from '../../shared/observability/index.js';

/**
 * Build the middleware.
 * @param metrics - the process metrics
 */
export function httpMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const stop = metrics.httpDuration.startTimer();
    res.on('finish', () => {
      const route =
        (req.route as { path?: string } | undefined)?.path ?? (res.statusCode === 404 ? 'unknown' : req.path);
      metrics.httpRequests.inc({ route, method: req.method, status: String(res.statusCode) });
      stop({ route, method: req.method });
    });
    next();
  };
}
