/**
 * `POST /v1/execute` (spec §4.3) and `POST /v1/start` (spec §4.4): one path from the request to a run submission,
 * then the delivery. `/v1/execute` blocks on the orchestrator the request resolves to (in this process for `direct`,
 * on the workers for `bullmq`, waiting for the outcome); `/v1/start` fires and forgets, answering 202 once the run is
 * enqueued, and needs an async-capable orchestrator (400 `StartRequiresAsyncOrchestration` on `direct`, checked before
 * the bundle is loaded, as the reference does). Both check the bundle, the pipe and the inputs before they run or
 * enqueue anything, so they refuse the same requests with the same problem documents. The caller must own the
 * `storage_scope` (403), and on `/v1/start` the `pipeline_run_id` (409 when another caller's run holds it;
 * docs/run-ownership.md).
 */
import { type Request, type Response, Router } from 'express';
import type { BundleLimits } from '../../shared/bundles/index.js';
import { StartRequiresAsyncOrchestration } from '../../shared/errors/index.js';
import type { MethodFetcher } from '../../shared/methods/index.js';
import type { Orchestrator, RunSubmission } from '../../shared/orchestration/index.js';
import { jsonBody } from '../body/json-body.js';
import { clientSignal } from '../offload/client-signal.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { Orchestration } from '../orchestration.js';
import { resolveRunSources } from '../run-method.js';
import { runOwnership } from '../run-ownership.js';
import { checkCallbackUrls, parseRunRequest, toSubmission } from '../run-request.js';
import { sendJson } from '../send-json.js';

/** What the run routes need. */
export interface RunRouteOptions {
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
 * The header naming the run a `/v1/execute` request became, on its answer whether the run completed or failed, so a
 * caller can read a failed run's status and events (docs/api.md "Run lifecycle").
 */
const RUN_ID_HEADER = 'X-Pipeline-Run-Id';

/** How a run is delivered: `/v1/execute` blocks, `/v1/start` fires and forgets. */
type Delivery = 'blocking' | 'fire_and_forget';

/**
 * The one path from a run request to its submission (API-CONTRACT.md §3.5 processing order): schema, callback URLs,
 * ownership, orchestrator, (for `/v1/start`) its async capability, then the sources.
 * @throws the request's 4xx problems (422 schema, 422 InvalidCallbackUrls, 403 StorageOwnershipMismatchError,
 *   403 OrchestrationModeOverrideForbidden, 400 StartRequiresAsyncOrchestration) and the source rules' and fetch's
 */
async function acceptRun(
  req: Request,
  res: Response,
  options: RunRouteOptions,
  delivery: Delivery,
): Promise<{ orchestrator: Orchestrator; submission: RunSubmission }> {
  const body = parseRunRequest(req.body);
  checkCallbackUrls(body.callback_urls ?? [], options.allowPrivateCallbackHosts);
  const ownership = runOwnership(res.locals.identity, body.storage_scope);
  const orchestrator = options.orchestration.select(body.orchestration_mode);
  if (delivery === 'fire_and_forget' && !orchestrator.start) {
    throw new StartRequiresAsyncOrchestration(
      `Orchestration mode '${orchestrator.mode}' cannot honor fire-and-forget delivery: /start requires an async-capable orchestration, and this deployment has none. Use /execute (synchronous) instead.`,
    );
  }
  const run = await resolveRunSources(body, { bundleLimits: options.bundleLimits, fetcher: options.methodFetcher });
  const submission = toSubmission(body, run, {
    requestId: res.locals.requestId,
    ownership,
    honourRunId: delivery === 'fire_and_forget',
  });
  return { orchestrator, submission };
}

/**
 * Router serving `POST /v1/execute` and `POST /v1/start`.
 * @param options - body limits, orchestration, callback policy, bundle ceilings, method fetcher, diagnostics pool
 */
export function runRouter(options: RunRouteOptions): Router {
  const router = Router();
  const body = jsonBody(options, 'run', options.diagnostics);
  router.post('/v1/execute', body, async (req, res) => {
    const { orchestrator, submission } = await acceptRun(req, res, options, 'blocking');
    res.setHeader(RUN_ID_HEADER, submission.pipelineRunId);
    sendJson(res, 200, await orchestrator.execute(submission, clientSignal(res)));
  });
  router.post('/v1/start', body, async (req, res) => {
    const { orchestrator, submission } = await acceptRun(req, res, options, 'fire_and_forget');
    sendJson(res, 202, await orchestrator.start!(submission));
  });
  return router;
}
