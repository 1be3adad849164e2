/**
 * `GET /health` (spec §4.1): outside `/v1` and outside auth; touches no dependency, so it cannot fail.
 */
import { Router } from 'express';
import type { z } from 'zod';
import type { RouteSpec } from '../openapi/route-spec.js';
import { HEALTH_RESPONSE } from '../openapi/schemas/service.js';
import { sendJson } from '../send-json.js';

/** `GET /health`, as the OpenAPI document describes it. */
export const HEALTH_ROUTE: RouteSpec = {
  method: 'get',
  path: '/health',
  operationId: 'get_health_health_get',
  tag: 'health',
  summary: 'Liveness probe',
  description:
    'Whether the process is serving. Touches no dependency and cannot fail; outside `/v1` and outside authentication. Restart a process on it; route traffic on `GET /ready`.',
  public: true,
  infallible: true,
  responses: { 200: { description: 'The process is serving.', schema: HEALTH_RESPONSE } },
  problems: [],
};

/** Router serving `GET /health`. */
export function healthRouter(): Router {
  const router = Router();
  router.get(HEALTH_ROUTE.path, (_req, res) => {
    const body: z.infer<typeof HEALTH_RESPONSE> = { status: 'ok', message: 'MTHDS runner is running' };
    sendJson(res, 200, body);
  });
  return router;
}
