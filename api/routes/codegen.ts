/**
 * `POST /v1/codegen` (spec §4.7; API-CONTRACT.md §3.9): the `types` projection of a closure for one target, stamped
 * and locked. A verdict either way is 200; an unknown `kind` / `target`, or a `pipe_ref` with `types`, is a 422.
 */
import { Router } from 'express';
import { z } from 'zod';
import { CODEGEN_TARGETS, generateTypes } from '../../shared/codegen/index.js';
import type { MethodFetcher } from '../../shared/methods/index.js';
import { closureRequestSchema, loadClosureLibrary } from '../closure-selector.js';
import { jsonBody } from '../middleware/json-body.js';
import { parseBody } from '../request-schema.js';
import { sendJson } from '../send-json.js';

function codegenRequest(maxMthdsFileKib: number) {
  return closureRequestSchema({ kind: z.enum(['types']), target: z.enum(CODEGEN_TARGETS), pipe_ref: z.string().max(512).nullish() }, maxMthdsFileKib).superRefine((body, context) => {
    if (body.kind === 'types' && body.pipe_ref !== null && body.pipe_ref !== undefined) {
      context.addIssue({ code: 'custom', message: "Value error, pipe_ref is not accepted for kind='types' (a concept-set-wide projection)" });
    }
  });
}

/**
 * Router serving `POST /v1/codegen`.
 * @param options - body limit in bytes; `MAX_MTHDS_FILE_KIB`; the method fetcher serving `method_ref`
 */
export function codegenRouter(options: { maxBodyBytes: number; maxJsonDepth: number; maxMthdsFileKib: number; methodFetcher: MethodFetcher }): Router {
  const request = codegenRequest(options.maxMthdsFileKib);
  const router = Router();
  router.post('/v1/codegen', jsonBody(options, 'typed'), async (req, res) => {
    const body = parseBody(request, req.body);
    const loaded = await loadClosureLibrary(body, options.methodFetcher, 'compat');
    if ('is_valid' in loaded) return sendJson(res, 200, loaded);
    const projection = generateTypes(loaded.library, body.target);
    sendJson(res, 200, { is_valid: true, kind: body.kind, target: body.target, ...projection, message: 'Codegen artifacts generated successfully' });
  });
  return router;
}
