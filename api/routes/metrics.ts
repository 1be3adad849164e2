/**
 * `GET /metrics`: Prometheus text exposition of the process metrics, behind the same authentication as `/v1` and
 * switchable off with `METRICS_ENABLED=false`.
 */
import { Router } from 'express';
import type { Metrics } from '../../shared/observability/index.js';

/**
 * Router serving `/metrics`.
 * @param metrics - the process metrics
 */
export function metricsRouter(metrics: Metrics): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    res.status(200).setHeader('Content-Type', metrics.registry.contentType);
    res.end(await metrics.registry.metrics());
  });
  return router;
}
