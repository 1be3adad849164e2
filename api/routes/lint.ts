/**
 * `POST /v1/lint` (API-CONTRACT.md §3.13): TOML syntax, TOML key rules and the embedded bundle schema, offline. Any
 * verdict on the text is 200 `{diagnostics}`; 422 only for a malformed request (no `content`, oversized content).
 */
import { Router } from 'express';
import { z } from 'zod';
import { jsonBody } from '../middleware/json-body.js';
import { clientSignal } from '../offload/client-signal.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import { parseBody } from '../request-schema.js';
import { sendEncodedJson } from '../send-json.js';
import { mthdsContent } from '../mthds-content.js';

/**
 * Router serving `POST /v1/lint`. The text is linted in the diagnostics pool (docs/isolation.md "Diagnostics pool").
 * @param options - body limit in bytes, `MAX_MTHDS_FILE_KIB` and the diagnostics pool
 */
export function lintRouter(options: { maxBodyBytes: number; maxJsonDepth: number; maxMthdsFileKib: number; diagnostics: DiagnosticsPool }): Router {
  const request = z.object({ content: mthdsContent(options.maxMthdsFileKib), source: z.string().max(1024).nullish() });
  const router = Router();
  router.post('/v1/lint', jsonBody(options, 'typed'), async (req, res) => {
    const body = parseBody(request, req.body);
    sendEncodedJson(res, 200, await options.diagnostics.run('lint', { content: body.content }, clientSignal(res)));
  });
  return router;
}
