/**
 * `POST /v1/start` (spec §4.4): fire-and-forget. Needs an async-capable orchestrator (400
 * `StartRequiresAsyncOrchestration` on `direct`, checked before the bundle is loaded, as the reference does); answers
 * 202 with the acknowledgement once the run is enqueued. The caller must own the `storage_scope` (403) and the
 * `pipeline_run_id` (409 when another caller's run holds it; docs/run-ownership.md).
 */
import { Router } from 'express';
import type { BundleLimits } from '../../shared/bundles/index.js';
import { StartRequiresAsyncOrchestration } from '../../shared/errors/index.js';
import { jsonBody } from '../body/json-body.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { Orchestration } from '../orchestration.js';
import type { MethodFetcher } from '../../shared/methods/index.js';
import { resolveRunSources } from '../run-method.js';
import { checkCallbackUrls, parseRunRequest, toSubmission } from '../run-request.js';
import { sendJson } from '../send-json.js';
import { runOwnership } from '../run-ownership.js';

/** What the route needs. */
export interface StartRouteOptions {
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
 * Router serving `POST /v1/start`.
 * @param options - body limit, orchestration, callback policy, bundle ceilings, method fetcher, diagnostics pool
 */
export function startRouter(options: StartRouteOptions): Router {
  const router = Router();
  router.post('/v1/start', jsonBody(options, 'run', options.diagnostics), async (req, res) => {
    const body = parseRunRequest(req.body);
    checkCallbackUrls(body.callback_urls ?? [], options.allowPrivateCallbackHosts);
    const ownership = runOwnership(res.locals.identity, body.storage_scope);
    const orchestrator = options.orchestration.select(body.orchestration_mode);
    if (!orchestrator.start) {
      throw new StartRequiresAsyncOrchestration(
        `Orchestration mode '${orchestrator.mode}' cannot honor fire-and-forget delivery: /start requires an async-capable orchestration, and this deployment has none. Use /execute (synchronous) instead.`,
      );
    }
    const run = await resolveRunSources(body, { bundleLimits: options.bundleLimits, fetcher: options.methodFetcher });
    const submission = toSubmission(body, run, { requestId: res.locals.requestId, ownership, honourRunId: true });
    sendJson(res, 202, await orchestrator.start(submission));
  });
  return router;
}
