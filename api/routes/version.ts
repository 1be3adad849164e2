/**
 * `GET /v1/version` (spec §2.11, §4.2): the handshake for feature detection. Like every `/v1` route it is behind
 * authentication when auth is enabled (spec §4.2 lists 401; the reference serves it publicly).
 */
import { Router } from 'express';
import { IMPLEMENTATION_NAME, IMPLEMENTATION_VERSION, PROTOCOL_VERSION } from '../../shared/version.js';
import { sendJson } from '../send-json.js';

/** Body of `GET /v1/version` (API-CONTRACT.md §3.3). */
export interface VersionInfo {
  protocol_version: string;
  runner_version: string;
  implementation: string;
  implementation_version: string;
  runtime_version: string;
}

/** Router serving `GET /v1/version`. */
export function versionRouter(): Router {
  const router = Router();
  router.get('/v1/version', (_req, res) => {
    const body: VersionInfo = {
      protocol_version: PROTOCOL_VERSION,
      runner_version: IMPLEMENTATION_VERSION,
      implementation: IMPLEMENTATION_NAME,
      implementation_version: IMPLEMENTATION_VERSION,
      runtime_version: IMPLEMENTATION_VERSION,
    };
    sendJson(res, 200, body);
  });
  return router;
}
