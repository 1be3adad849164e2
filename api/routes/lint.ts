/**
 * `POST /v1/lint` (API-CONTRACT.md §3.13): TOML syntax, TOML key rules and the embedded bundle schema, offline. Any
 * verdict on the text is 200 `{diagnostics}`; 422 only for a malformed request (no `content`, oversized content).
 */
import { Router } from 'express';
import { z } from 'zod';
import { lintMthds } from '../../shared/tooling/index.js';
import { jsonBody } from '../middleware/json-body.js';
import { parseBody } from '../request-schema.js';
import { sendJson } from '../send-json.js';
import { mthdsContent } from '../mthds-content.js';

/**
 * Router serving `POST /v1/lint`.
 * @param options - body limit in bytes and `MAX_MTHDS_FILE_KIB`
 */
export function lintRouter(options: { maxBodyBytes: number; maxJsonDepth: number; maxMthdsFileKib: number }): Router {
  const request = z.object({ content: mthdsContent(options.maxMthdsFileKib), source: z.string().max(1024).nullish() });
  const router = Router();
  router.post('/v1/lint', jsonBody(options, 'typed'), (req, res) => {
    const body = parseBody(request, req.body);
    sendJson(res, 200, { diagnostics: lintMthds(body.content) });
  });
  return router;
}
