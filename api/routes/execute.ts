/**
 * `POST /v1/execute` (spec §4.3): a blocking run on the orchestrator the request resolves to — in this process
 * (`direct`) or on the workers (`bullmq`, waiting for the outcome). The caller must own the `storage_scope` (403;
 * docs/run-ownership.md).
 */
import { Router } from 'express';
import type { BundleLimits } from '../../shared/bundles/index.js';
import { jsonBody } from '../body/json-body.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { Orchestration } from '../orchestration.js';
import type { MethodFetcher } from '../../shared/methods/index.js';
import { resolveRunSources } from '../run-method.js';
import { checkCallbackUrls, parseRunRequest, toSubmission } from '../run-request.js';
import { sendJson } from '../send-json.js';
import { runOwnership } from '../run-ownership.js';

/** What the route needs. */
export interface ExecuteRouteOptions {
  maxBodyBytes: number;
  /** `MAX_JSON_DEPTH`, the deepest JSON body accepted. */
  maxJsonDepth: number;
  orchestration: Orchestration;
  allowPrivateCallbackHosts: boolean;
  /** Ceilings of a `bundle_b64` / `files` bundle (`MAX_BUNDLE_FILES`, `MAX_BUNDLE_TOTAL_KIB`). */
  bundleLimits: BundleLimits;
  /** Fetches `method_ref` packages (a registry form answers 501). */
  methodFetcher: MethodFetcher;
  /** Where a large body is decoded (docs/isolation.md "Request bodies"). */
  diagnostics: DiagnosticsPool;
}

/**
 * Router serving `POST /v1/execute`.
 * @param options - body limit, orchestration, callback policy, bundle ceilings, method fetcher, diagnostics pool
 */
export function executeRouter(options: ExecuteRouteOptions): Router {
  const router = Router();
  router.post('/v1/execute', jsonBody(options, 'run', options.diagnostics), async (req, res) => {
    const body = parseRunRequest(req.body);
    checkCallbackUrls(body.callback_urls ?? [], options.allowPrivateCallbackHosts);
    const ownership = runOwnership(res.locals.identity, body.storage_scope);
    const orchestrator = options.orchestration.select(body.orchestration_mode);
    const run = await resolveRunSources(body, { bundleLimits: options.bundleLimits, fetcher: options.methodFetcher });
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort(new Error('client closed the connection'));
    });
    const submission = toSubmission(body, run, { requestId: res.locals.requestId, ownership, honourRunId: false });
    sendJson(res, 200, await orchestrator.execute(submission, abort.signal));
  });
  return router;
}
