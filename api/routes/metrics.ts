/**
 * `GET /metrics`: Prometheus text exposition of the process metrics, behind the operator credential
 * (`middleware/operator-auth.ts`; a tenant's is refused) and switchable off with `METRICS_ENABLED=false`.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { Metrics } from '../../shared/observability/index.js';
import type { RouteSpec } from '../openapi/route-spec.js';

/** The path `metricsRouter` is mounted at. */
export const METRICS_PATH = '/metrics';

/** `GET /metrics`, as the OpenAPI document describes it. */
export const METRICS_ROUTE: RouteSpec = {
  method: 'get',
  path: METRICS_PATH,
  operationId: 'get_metrics_metrics_get',
  tag: 'observability',
  summary: 'Prometheus metrics',
  description:
    'The process metrics in the Prometheus text exposition format (docs/metrics.md), for operators: it needs the operator credential (`OPERATOR_API_KEY`, or a JWT whose `roles` claim lists `operator`), and a tenant credential gets 403 `OperatorCredentialRequired` (docs/run-ownership.md#operators). Served unless `METRICS_ENABLED=false`.',
  responses: {
    200: {
      description: 'The metrics.',
      contentType: 'text/plain',
      schema: z.string(),
    },
  },
  problems: ['OperatorCredentialRequired'],
};

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
