/**
 * `GET /ready`: readiness, outside `/v1` and outside auth like `/health`. 200 with each check's state once the process
 * is warm; else 503 `ServiceNotReadyError` (problem document, `Retry-After`) naming the checks not passed.
 */
import { Router } from 'express';
import { ServiceNotReadyError } from '../../shared/errors/index.js';
import type { CheckState, Readiness } from '../readiness.js';
import { sendJson } from '../send-json.js';

/** Body of `GET /ready` when ready. */
export interface ReadyResponse {
  status: 'ready';
  checks: Record<string, CheckState>;
}

/** Seconds a not-ready answer asks the prober to wait: warm-ups take a few seconds. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Router serving `GET /ready`.
 * @param readiness - the process's checks
 */
export function readyRouter(readiness: Readiness): Router {
  const router = Router();
  router.get('/ready', async (_req, res) => {
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
    const body: ReadyResponse = { status: 'ready', checks: verdict.checks };
    sendJson(res, 200, body);
  });
  return router;
}
