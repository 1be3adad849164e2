/**
 * `POST /v1/format` (API-CONTRACT.md §3.13): the canonical `.mthds` style. 200 `{formatted, changed, diagnostics}`; a
 * text with a syntax error comes back unchanged with its diagnostic; a malformed or unknown option is 422.
 */
import { Router } from 'express';
import { z } from 'zod';
import { FORMAT_OPTIONS } from '../../shared/tooling/index.js';
import { jsonBody } from '../middleware/json-body.js';
import { clientSignal } from '../offload/client-signal.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import { parseBody } from '../request-schema.js';
import { sendEncodedJson } from '../send-json.js';
import { mthdsContent } from '../mthds-content.js';

/**
 * Router serving `POST /v1/format`. The text is formatted in the diagnostics pool (docs/isolation.md "Diagnostics
 * pool").
 * @param options - body limit in bytes, `MAX_MTHDS_FILE_KIB` and the diagnostics pool
 */
export function formatRouter(options: { maxBodyBytes: number; maxJsonDepth: number; maxMthdsFileKib: number; diagnostics: DiagnosticsPool }): Router {
  const request = z.object({ content: mthdsContent(options.maxMthdsFileKib), options: FORMAT_OPTIONS.nullish() });
  const router = Router();
  router.post('/v1/format', jsonBody(options, 'typed'), async (req, res) => {
    const body = parseBody(request, req.body);
    sendEncodedJson(res, 200, await options.diagnostics.run('format', { content: body.content, options: body.options ?? null }, clientSignal(res)));
  });
  return router;
}
