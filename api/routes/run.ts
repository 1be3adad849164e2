/**
 * `POST /v1/execute` (spec §4.3) and `POST /v1/start` (spec §4.4): one path from the request to a run submission,
 * then the delivery. `/v1/execute` blocks on the orchestrator the request resolves to (in this process for `direct`,
 * on the workers for `bullmq`, waiting for the outcome); `/v1/start` fires and forgets, answering 202 once the run is
 * enqueued, and needs an async-capable orchestrator (400 `StartRequiresAsyncOrchestration` on `direct`, checked before
 * the bundle is loaded, as the reference does). Both check the bundle, the pipe and the inputs before they run or
 * enqueue anything, so they refuse the same requests with the same problem documents. The caller must own the
 * `storage_scope` (403), and on `/v1/start` the `pipeline_run_id` (409 when another caller's run holds it;
 * docs/run-ownership.md). A result a worker stored with storage references (its large media moved to storage) is
 * answered with URLs the caller can fetch in their place (docs/storage.md#media).
 */
import { type Request, type Response, Router } from 'express';
import type { BundleLimits } from '../../shared/bundles/index.js';
import type { KeptResponse } from '../../shared/database/index.js';
import { StartRequiresAsyncOrchestration } from '../../shared/errors/index.js';
import type { MethodFetcher } from '../../shared/methods/index.js';
import type {
  DispatchPolicy,
  Orchestrator,
  RunObjects,
  RunSubmission,
  StartAcknowledgement,
} from '../../shared/orchestration/index.js';
import { jsonBody } from '../body/json-body.js';
import { answerOnce, type KeyedRequest, keptAnswerOnce, sendKeptAnswer } from '../idempotency.js';
import type { MethodCatalog } from '../method-catalog.js';
import type { Identity } from '../middleware/authenticate.js';
import { clientSignal } from '../offload/client-signal.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import { EXAMPLE_BUNDLE, EXAMPLE_INPUTS } from '../openapi/examples.js';
import type { ProblemSpec, RequestBodySpec, RouteSpec } from '../openapi/route-spec.js';
import { RUN_RESULT, RUN_START } from '../openapi/schemas/run-result.js';
import type { Orchestration } from '../orchestration.js';
import { type RateShareLookup, runRateTenant } from '../rate-tenants.js';
import type { RunHistoryService } from '../run-history-service.js';
import { resolveRunSources } from '../run-method.js';
import { checkInputReferences, runOwnership } from '../run-ownership.js';
import {
  checkCallbackUrls,
  checkTimeout,
  hasInlineSources,
  parseRunRequest,
  RUN_REQUEST,
  toSubmission,
} from '../run-request.js';
import type { StorageLinks } from '../storage-links.js';
import { withFetchableUrls } from '../storage-urls.js';

const RUN_BODY: RequestBodySpec = {
  id: 'RunRequest',
  schema: RUN_REQUEST,
  example: { mthds_contents: [EXAMPLE_BUNDLE], inputs: EXAMPLE_INPUTS },
};

/** Problems of accepting a run: the request, its sources, its bundle, its owner (docs/api.md, docs/bundles.md). */
const ACCEPT_PROBLEMS: readonly ProblemSpec[] = [
  'InvalidBase64',
  'OrchestrationModeOverrideForbidden',
  'CustomCodeRequiresSandbox',
  'MethodStructuresRefusedError',
  'StorageOwnershipMismatchError',
  'InvalidStorageUriError',
  'MethodPackageNotFoundError',
  'ValidationError',
  'InvalidJSON',
  'InvalidCallbackUrls',
  'InvalidBundle',
  'MthdsParserError',
  'ValidateBundleError',
  'PipeNotFoundError',
  'MethodRefParseError',
  'MethodFetchError',
  'MethodPackageAmbiguityError',
  'MethodPackageTooLargeError',
  'ComputeBudgetExceededError',
  'MissingOrchestratorError',
  'MethodRefNotSupported',
  'MethodNotFoundError',
  'MethodBeingDeletedError',
  'MethodNotPublishedError',
  'MethodVersionNotFoundError',
  'ServerBusyError',
  'QueueUnavailableError',
  'StorageUnavailableError',
];

/** `POST /v1/execute`, as the OpenAPI document describes it. */
export const EXECUTE_ROUTE: RouteSpec = {
  method: 'post',
  path: '/v1/execute',
  operationId: 'execute_v1_execute_post',
  tag: 'run',
  summary: 'Execute',
  description:
    'Run a pipe and answer when the run has finished: in this process (`direct`) or on the workers (`bullmq`), by the deployment’s orchestration mode. The bundle comes inline (`mthds_contents`), as a whole bundle (`bundle_b64` / `files`), by address (`method_ref`) or from the methods catalog (`method_id`, docs/methods.md#method_id); see docs/api.md#post-v1execute.',
  protocol: true,
  body: RUN_BODY,
  responses: { 200: { description: 'The finished run.', schema: RUN_RESULT } },
  problems: [
    ...ACCEPT_PROBLEMS,
    'ConceptNotFoundError',
    'ConceptAmbiguityError',
    'StuffFactoryError',
    'PipeInputError',
    'PipeSignatureNotExecutableError',
    'ModelChoiceNotFoundError',
    'Jinja2TemplateRenderError',
    'Jinja2TemplateBudgetError',
    'LLMCompletionTruncatedError',
    'LLMCompletionRefusedError',
    'LLMStructuredOutputError',
    'OutboundRequestRefusedError',
    { errorType: 'LLMCompletionError', status: 429 },
    'LLMCompletionError',
    'StorageObjectNotFoundError',
    'PipeStackOverflowError',
    'PipeConditionError',
    'PipeOutputValidationError',
    'PipelexUnexpectedError',
    'RunCrashedError',
    'PipeFeatureNotSupportedError',
    'RunTimeoutError',
    'RunCancelledError',
    'RunTimedOutError',
  ],
};

/** `POST /v1/start`, as the OpenAPI document describes it. */
export const START_ROUTE: RouteSpec = {
  method: 'post',
  path: '/v1/start',
  operationId: 'start_v1_start_post',
  tag: 'run',
  summary: 'Start',
  description:
    'Enqueue a run and answer at once (202); poll `GET /v1/runs/{runId}/status` and `/results`, or receive the result at `callback_urls`. Needs queue mode: on a `direct` deployment it answers 400 `StartRequiresAsyncOrchestration` (README "Queue mode").',
  protocol: true,
  body: RUN_BODY,
  responses: { 202: { description: 'The run is enqueued.', schema: RUN_START } },
  problems: [
    'StartRequiresAsyncOrchestration',
    ...ACCEPT_PROBLEMS,
    'PipelineManagerAlreadyExistsError',
    'PipelineRunIdTakenError',
    'EnvVarNotFoundError',
  ],
};

/** What the run routes need. */
export interface RunRouteOptions {
  maxBodyBytes: number;
  /** `MAX_JSON_DEPTH`, the deepest JSON body accepted. */
  maxJsonDepth: number;
  /** `MAX_JSON_VALUES`, the most values a JSON body may hold. */
  maxJsonValues: number;
  orchestration: Orchestration;
  allowPrivateCallbackHosts: boolean;
  /** `RUN_TIMEOUT_MAX_SECONDS`: the largest `timeout_seconds` a run may give (docs/cancellation.md#deadlines). */
  runTimeoutMaxSeconds: number;
  /** Ceilings of a `bundle_b64` / `files` bundle (`MAX_BUNDLE_FILES`, `MAX_BUNDLE_TOTAL_KIB`). */
  bundleLimits: BundleLimits;
  /** Fetches `method_ref` packages (a registry form answers 501). */
  methodFetcher: MethodFetcher;
  /** Where a large body is decoded (docs/isolation.md#request-bodies). */
  diagnostics: DiagnosticsPool;
  /** Signs the links of stored files in results (docs/uploads.md#in-results). */
  links: StorageLinks;
  /** Where each accepted run is kept as it was sent, for its history. */
  objects: RunObjects;
  /** The control plane's services (idempotency keys), when served. */
  runHistory?: Promise<RunHistoryService>;
  /** The methods catalog a `method_id` names, when this deployment serves one (docs/methods.md#method_id). */
  catalog?: Promise<MethodCatalog> | undefined;
  /**
   * An organization's own share of the provider rate limits, when an operator gave it one
   * (docs/inference.md#organization-shares); served with a control plane.
   */
  rateShares?: RateShareLookup | undefined;
  /** The owners' terms at the dispatch gate (docs/fair-dispatch.md#shares), read before a start's idempotency hold. */
  dispatchTerms?: DispatchPolicy;
}

/**
 * The header naming the run a `/v1/execute` request became, on its answer whether the run completed or failed, so a
 * caller can read a failed run's status and events (docs/api.md#run-lifecycle).
 */
const RUN_ID_HEADER = 'X-Pipeline-Run-Id';

/**
 * How a run is delivered: `/v1/execute` blocks, `/v1/start` fires and forgets, an MCP tool call launches it (started
 * as `/v1/start` starts it, or on a `direct` deployment run in this process beyond the answer: docs/mcp.md#durable-calls).
 */
type Delivery = 'blocking' | 'fire_and_forget' | 'launch';

/** Who asks for a run: the authenticated caller and the request id its run carries. */
export interface RunCaller {
  identity: Identity;
  requestId: string;
}

function callerOf(res: Response): RunCaller {
  return { identity: res.locals.identity as Identity, requestId: res.locals.requestId as string };
}

/**
 * The one path from a run request to its submission (docs/api.md#post-v1execute processing order): schema (the source
 * rules
 * and the count of callback URLs included), callback URLs, the timeout's bound, ownership, orchestrator, (for
 * `/v1/start`) its async capability, then the sources' bundle or fetch.
 * @throws the request's 4xx problems (422 schema, 422 InvalidCallbackUrls, 422 ValidationError for a `timeout_seconds`
 *   over `RUN_TIMEOUT_MAX_SECONDS`, 403 StorageOwnershipMismatchError,
 *   403 OrchestrationModeOverrideForbidden, 400 StartRequiresAsyncOrchestration) and the source rules' and fetch's
 */
async function acceptRun(
  request: unknown,
  caller: RunCaller,
  options: RunRouteOptions,
  delivery: Delivery,
): Promise<{ orchestrator: Orchestrator; submission: RunSubmission; methodVersion?: number | 'draft' }> {
  const body = parseRunRequest(request);
  checkCallbackUrls(body.callback_urls ?? [], options.allowPrivateCallbackHosts);
  checkTimeout(body.timeout_seconds, options.runTimeoutMaxSeconds);
  const ownership = runOwnership(caller.identity, body.storage_scope);
  checkInputReferences(body.inputs, ownership);
  const orchestrator = options.orchestration.select(body.orchestration_mode);
  if (delivery === 'fire_and_forget' && !orchestrator.start) {
    throw new StartRequiresAsyncOrchestration(
      `Orchestration mode '${orchestrator.mode}' cannot honor fire-and-forget delivery: /v1/start needs the queue backend. To enable it, put orchestration_mode = "bullmq" in api_override.toml of SERVICE_CONFIG_DIR (default ./config), give REDIS_URL a Redis and restart (npm start runs a worker in process; scaled deployments run npm run start:worker). Or use /v1/execute (synchronous) instead.`,
    );
  }
  const run = await resolveRunSources(body, {
    bundleLimits: options.bundleLimits,
    fetcher: options.methodFetcher,
    catalog: options.catalog,
    identity: caller.identity,
  });
  const submission = toSubmission(body, run, {
    requestId: caller.requestId,
    ownership,
    honourRunId: delivery !== 'blocking',
    rateTenant: await runRateTenant(caller.identity, options.rateShares),
  });
  // a run of a stored method says which of its contents runs: a version's number, or the draft
  const byId = run.methodLink && !hasInlineSources(body) ? run.methodLink : undefined;
  return { orchestrator, submission, ...(byId ? { methodVersion: byId.version ?? 'draft' } : {}) };
}

/**
 * How a run route sends what the run path answers: its scope among `Idempotency-Key`s, its success status and the
 * body's shape (the `/v1` routes send it as it is; the older routes reshape it, docs/api.md#older-unversioned-routes).
 */
export interface RunAnswer {
  /** The route's method and path (`POST /v1/execute`), part of an `Idempotency-Key`'s scope. */
  route: string;
  /** The success status. */
  status: number;
  /** The body sent, from the run result (`executeRun`) or the acknowledgement (`startRun`). */
  shape: (body: object) => object;
}

const AS_IS = (body: object): object => body;

/**
 * Run a request to completion and answer its result (the path of `POST /v1/execute`).
 * @param req - the request (its `Idempotency-Key` and, for the URLs of stored media, its host)
 * @param res - where the answer goes
 * @param options - the run routes' dependencies
 * @param request - the decoded run request (`RUN_REQUEST`'s shape, checked here)
 * @param answer - the route's idempotency scope, status and body shape
 * @throws the problems of {@link EXECUTE_ROUTE}
 */
export async function executeRun(
  req: Request,
  res: Response,
  options: RunRouteOptions,
  request: unknown,
  answer: RunAnswer,
): Promise<void> {
  const { orchestrator, submission } = await acceptRun(request, callerOf(res), options, 'blocking');
  await answerOnce(req, res, options.runHistory, answer.route, 'long', async () => {
    res.setHeader(RUN_ID_HEADER, submission.pipelineRunId);
    const running = orchestrator.execute(submission, clientSignal(res));
    const result = await withFetchableUrls(await running, res.locals.identity, { links: options.links, req });
    return { status: answer.status, body: answer.shape(result) };
  });
}

/**
 * Enqueue a request's run and answer its acknowledgement (the path of `POST /v1/start`).
 * @param req - the request (its `Idempotency-Key`)
 * @param res - where the answer goes
 * @param options - the run routes' dependencies
 * @param request - the decoded run request (`RUN_REQUEST`'s shape, checked here)
 * @param answer - the route's idempotency scope, status and body shape
 * @throws the problems of {@link START_ROUTE}
 */
export async function startRun(
  req: Request,
  res: Response,
  options: RunRouteOptions,
  request: unknown,
  answer: RunAnswer,
): Promise<void> {
  const keyed = { route: answer.route, key: req.get('Idempotency-Key'), body: req.body };
  sendKeptAnswer(res, await startRunFor(callerOf(res), options, request, keyed, answer, 'fire_and_forget'));
}

/** A started run: its acknowledgement (first or replayed) and, for a run in this process, its run to completion. */
export interface StartedRun {
  answer: KeptResponse;
  replayed: boolean;
  /** The in-process run of a `direct` deployment, launched by this call; absent for a queued run and a replay. */
  running?: Promise<unknown>;
}

/**
 * Accept a caller's run and start it, once per idempotency key: the path of `POST /v1/start` without its HTTP exchange,
 * shared with the MCP endpoint (docs/mcp.md#durable-calls). With `launch`, a deployment without a queue runs it in
 * this process, beyond the answer, as a `direct` run that a cancel stops.
 * @param caller - the caller and the request id
 * @param options - the run routes' dependencies
 * @param request - the decoded run request (`RUN_REQUEST`'s shape, checked here)
 * @param keyed - the idempotency scope's route, the key (undefined: none) and the body its digest is taken of
 * @param answer - the success status and body shape
 * @param delivery - `fire_and_forget` (`/v1/start`: a queue is needed) or `launch`
 * @throws the problems of {@link START_ROUTE}
 */
export async function startRunFor(
  caller: RunCaller,
  options: RunRouteOptions,
  request: unknown,
  keyed: Omit<KeyedRequest, 'owner'>,
  answer: Pick<RunAnswer, 'status' | 'shape'>,
  delivery: 'fire_and_forget' | 'launch',
): Promise<StartedRun> {
  const { orchestrator, submission, methodVersion } = await acceptRun(request, caller, options, delivery);
  // read (and cache) the owner's terms before the key's row and its database connection are held: a start that read
  // them inside could wait for a connection its own duplicates hold
  await options.dispatchTerms?.termsOf(submission.owner);
  let running: Promise<unknown> | undefined;
  const acknowledge = async (): Promise<StartAcknowledgement | { pipeline_run_id: string }> => {
    if (orchestrator.start) return orchestrator.start(submission);
    running = orchestrator.execute(submission, new AbortController().signal);
    running.catch(() => undefined);
    return { pipeline_run_id: submission.pipelineRunId };
  };
  const outcome = await keptAnswerOnce(
    options.runHistory,
    // the owner first, the rest after (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path); `keyed` has none
    { owner: caller.identity.userId, ...keyed },
    'quick',
    async () => {
      const acknowledgement = await acknowledge();
      const body =
        methodVersion === undefined ? acknowledgement : { ...acknowledgement, method_version: methodVersion };
      return { status: answer.status, body: answer.shape(body) };
    },
  );
  return running ? { ...outcome, running } : outcome;
}

/**
 * Router serving `POST /v1/execute` and `POST /v1/start`.
 * @param options - body limits, orchestration, callback policy, bundle ceilings, method fetcher, diagnostics pool,
 *   object store and URL lifetime
 */
export function runRouter(options: RunRouteOptions): Router {
  const router = Router();
  const body = jsonBody(options, 'run', options.diagnostics);
  router.post(EXECUTE_ROUTE.path, body, (req, res) =>
    executeRun(req, res, options, req.body, { route: 'POST /v1/execute', status: 200, shape: AS_IS }),
  );
  router.post(START_ROUTE.path, body, (req, res) =>
    startRun(req, res, options, req.body, { route: 'POST /v1/start', status: 202, shape: AS_IS }),
  );
  return router;
}
