/**
 * `POST /v1/resolve` (spec §4.6; API-CONTRACT.md §3.8): resolve the closure of `files` or `method_ref` into the crate
 * of its library. A diagnostic route: any verdict, valid or invalid, is 200; resolution is static (no dry-run sweep).
 */
import { Router } from 'express';
import type { ValidationErrorItem } from '../../shared/errors/index.js';
import type { MethodFetcher } from '../../shared/methods/index.js';
import { buildCrate, loadLibrary, type Crate } from '../../shared/mthds/index.js';
import { closureRequestSchema, loadClosure, VALIDATION_MODE } from '../closure-selector.js';
import { jsonBody } from '../middleware/json-body.js';
import { parseBody } from '../request-schema.js';
import { sendJson } from '../send-json.js';

/** The request schema: the closure selector alone (spec §2.1). */

/** The message of a valid verdict (API-CONTRACT.md §3.8). */
export const RESOLVED_MESSAGE = 'MTHDS library resolved successfully';

/**
 * The 200 body of `POST /v1/resolve`: `ResolveValidReport` with the crate, or `CrateInvalidReport` (no
 * `pending_signatures`, no `is_runnable`; each item carries its file's `source`).
 * @see API-CONTRACT.md §3.8, §4.1, §4.6
 */
export type ResolveReport = { is_valid: true; crate: Crate; message: string } | { is_valid: false; validation_errors: ValidationErrorItem[]; message: string };

/**
 * Router serving `POST /v1/resolve`.
 * @param options - body limit in bytes, `MAX_MTHDS_FILE_KIB`, and the deployment's method fetcher
 * @throws (through the problem handler) ValidationError 422 for neither or both selectors, `files: []` or an
 *   oversized file; whatever the fetcher throws for a `method_ref`
 */
export function resolveRouter(options: { maxBodyBytes: number; maxMthdsFileKib: number; methodFetcher: MethodFetcher }): Router {
  const request = closureRequestSchema({ validation_mode: VALIDATION_MODE }, options.maxMthdsFileKib);
  const router = Router();
  router.post('/v1/resolve', jsonBody(options.maxBodyBytes, 'typed'), async (req, res) => {
    const body = parseBody(request, req.body);
    const { sources } = await loadClosure(body, options.methodFetcher);
    const loaded = loadLibrary(sources, { mode: body.validation_mode ?? 'compat' });
    const report: ResolveReport = loaded.ok
      ? { is_valid: true, crate: buildCrate(loaded.library), message: RESOLVED_MESSAGE }
      : { is_valid: false, validation_errors: loaded.errors, message: loaded.message };
    sendJson(res, 200, report);
  });
  return router;
}
