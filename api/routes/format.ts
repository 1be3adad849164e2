/**
 * `POST /v1/format` (API-CONTRACT.md §3.13): the canonical `.mthds` style. 200 `{formatted, changed, diagnostics}`; a
 * text with a syntax error comes back unchanged with its diagnostic; a malformed or unknown option is 422.
 */
import { Router } from 'express';
import { z } from 'zod';
import { FORMAT_OPTIONS, formatMthds } from '../../shared/tooling/index.js';
import { jsonBody } from '../middleware/json-body.js';
import { parseBody } from '../request-schema.js';
import { sendJson } from '../send-json.js';
import { mthdsContent } from '../mthds-content.js';

/**
 * Router serving `POST /v1/format`.
 * @param options - body limit in bytes and `MAX_MTHDS_FILE_KIB`
 */
export function formatRouter(options: { maxBodyBytes: number; maxJsonDepth: number; maxMthdsFileKib: number }): Router {
  const request = z.object({ content: mthdsContent(options.maxMthdsFileKib), options: FORMAT_OPTIONS.nullish() });
  const router = Router();
  router.post('/v1/format', jsonBody(options, 'typed'), async (req, res) => {
    const body = parseBody(request, req.body);
    sendJson(res, 200, await formatMthds(body.content, body.options));
  });
  return router;
}
