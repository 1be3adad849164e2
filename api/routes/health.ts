/**
 * `GET /health` (spec §4.1): outside `/v1` and outside auth; touches no dependency, so it cannot fail.
 */
import { Router } from 'express';
import { sendJson } from '../send-json.js';

/** Body of `GET /health`. */
export interface HealthResponse {
  status: 'ok';
  message: string;
}

/** Router serving `GET /health`. */
export function healthRouter(): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    const body: HealthResponse = { status: 'ok', message: 'MTHDS runner is running' };
    sendJson(res, 200, body);
  });
  return router;
}
