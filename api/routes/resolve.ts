/**
 * `POST /v1/resolve` (spec §4.6; API-CONTRACT.md §3.8): resolve the closure of `files` or `method_ref` into the crate
 * of its library. A diagnostic route: any verdict, valid or invalid, is 200; resolution is static (no dry-run sweep).
 */
import { Router } from 'express';
import type { MethodFetcher } from '../../shared/methods/index.js';
import { closureRequestSchema, loadClosure, VALIDATION_MODE } from '../closure-selector.js';
import { jsonBody } from '../middleware/json-body.js';
import { clientSignal } from '../offload/client-signal.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import { parseBody } from '../request-schema.js';
import { sendEncodedJson } from '../send-json.js';

/**
 * Router serving `POST /v1/resolve`. Its 200 body is `ResolveValidReport` `{is_valid: true, crate, message}` or
 * `CrateInvalidReport` (no `pending_signatures`, no `is_runnable`; each item carries its file's `source`;
 * API-CONTRACT.md §3.8, §4.1, §4.6).
 * The library is loaded and its crate built in the diagnostics pool (docs/isolation.md "Diagnostics pool").
 * @param options - body limit in bytes, `MAX_MTHDS_FILE_KIB`, the deployment's method fetcher and the diagnostics pool
 * @throws (through the problem handler) ValidationError 422 for neither or both selectors, `files: []` or an
 *   oversized file; whatever the fetcher throws for a `method_ref`; ServerBusyError 503 and
 *   ComputeBudgetExceededError 422 from the pool
 */
export function resolveRouter(options: { maxBodyBytes: number; maxJsonDepth: number; maxMthdsFileKib: number; methodFetcher: MethodFetcher; diagnostics: DiagnosticsPool }): Router {
  const request = closureRequestSchema({ validation_mode: VALIDATION_MODE }, options.maxMthdsFileKib);
  const router = Router();
  router.post('/v1/resolve', jsonBody(options, 'typed'), async (req, res) => {
    const body = parseBody(request, req.body);
    const closure = await loadClosure(body, options.methodFetcher);
    sendEncodedJson(res, 200, await options.diagnostics.run('resolve', { ...closure, mode: body.validation_mode ?? 'compat' }, clientSignal(res)));
  });
  return router;
}
