/**
 * `GET /ready`: readiness, outside `/v1` and outside auth like `/health`. 200 with each check's state once the process
 * is warm; else 503 `ServiceNotReadyError` (problem document, `Retry-After`) naming the checks not passed.
 */
import { Router } from 'express';
import type { z } from 'zod';
import { ServiceNotReadyError } from '../../shared/errors/index.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { READY_RESPONSE } from '../openapi/schemas/service.js';
import type { Readiness } from '../readiness.js';
import { sendJson } from '../send-json.js';

/** `GET /ready`, as the OpenAPI document describes it. */
export const READY_ROUTE: RouteSpec = {
  method: 'get',
  path: '/ready',
  operationId: 'get_ready_ready_get',
  tag: 'health',
  summary: 'Readiness probe',
  description:
    'Whether the process is warm (its diagnostics threads loaded) and, in queue mode, Redis answers; outside `/v1` and outside authentication. Route traffic on it (docs/api.md#get-health-and-get-ready).',
  public: true,
  responses: { 200: { description: 'Ready: every check passed.', schema: READY_RESPONSE } },
  problems: ['ServiceNotReadyError'],
};

/** Seconds a not-ready answer asks the prober to wait: warm-ups take a few seconds. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Router serving `GET /ready`.
 * @param readiness - the process's checks
 */
export function readyRouter(readiness: Readiness): Router {
  const router = Router();
  router.get(READY_ROUTE.path, async (_req, res) => {
    const verdict = await readiness.check();
    if (!verdict.ready) {
      const failing = Object.entries(verdict.checks)
        .filter(([, state]) => state !== 'ok')
        .map(([name, state]) => `${name} ${state}`);
      throw new ServiceNotReadyError(`The service is not ready: ${failing.join(', ')}.`, {
        retryable: true,
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    }
    const body: z.infer<typeof READY_RESPONSE> = { status: 'ready', checks: verdict.checks };
    sendJson(res, 200, body);
  });
  return router;
}
