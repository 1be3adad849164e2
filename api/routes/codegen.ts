/**
 * `POST /v1/codegen` (spec §4.7; API-CONTRACT.md §3.9): the `types` projection of a closure for one target, stamped
 * and locked. A verdict either way is 200; an unknown `kind` / `target`, or a `pipe_ref` with `types`, is a 422.
 */
import { Router } from 'express';
import { z } from 'zod';
import { CODEGEN_TARGETS } from '../../shared/codegen/index.js';
import type { MethodFetcher } from '../../shared/methods/index.js';
import { closureRequestSchema, loadClosure } from '../closure-selector.js';
import { jsonBody } from '../middleware/json-body.js';
import { clientSignal } from '../offload/client-signal.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import { parseBody } from '../request-schema.js';
import { sendEncodedJson } from '../send-json.js';

function codegenRequest(maxMthdsFileKib: number) {
  return closureRequestSchema({ kind: z.enum(['types']), target: z.enum(CODEGEN_TARGETS), pipe_ref: z.string().max(512).nullish() }, maxMthdsFileKib).superRefine((body, context) => {
    if (body.kind === 'types' && body.pipe_ref !== null && body.pipe_ref !== undefined) {
      context.addIssue({ code: 'custom', message: "Value error, pipe_ref is not accepted for kind='types' (a concept-set-wide projection)" });
    }
  });
}

/**
 * Router serving `POST /v1/codegen`. The projection is computed in the diagnostics pool (docs/isolation.md
 * "Diagnostics pool").
 * @param options - body limit in bytes; `MAX_MTHDS_FILE_KIB`; the method fetcher serving `method_ref`; the diagnostics pool
 */
export function codegenRouter(options: { maxBodyBytes: number; maxJsonDepth: number; maxMthdsFileKib: number; methodFetcher: MethodFetcher; diagnostics: DiagnosticsPool }): Router {
  const request = codegenRequest(options.maxMthdsFileKib);
  const router = Router();
  router.post('/v1/codegen', jsonBody(options, 'typed'), async (req, res) => {
    const body = parseBody(request, req.body);
    const closure = await loadClosure(body, options.methodFetcher);
    sendEncodedJson(res, 200, await options.diagnostics.run('codegen', { ...closure, kind: body.kind, target: body.target }, clientSignal(res)));
  });
  return router;
}
