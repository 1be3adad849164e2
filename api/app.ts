/**
 * The Express application factory. Returns an app without listening, so tests drive it in-process.
 *
 * Request lifecycle, in order (CONTRIBUTING.md#13-thin-routes-checked-at-the-edge):
 * 1. request id (`X-Request-ID` on every response, spec §7.4), the access log line and request metrics
 * 2. this server's signed storage links (an upload grant's PUT, a download link: docs/uploads.md#signed-links), which
 *    carry their own credential and size, then the body-size guard on the declared length (413, spec §8), before
 *    routing and auth
 * 3. `GET /health` (liveness, outside `/v1` and outside auth, spec §4.1), `GET /ready` (readiness, likewise), the
 *    error pages `GET /errors/…` (where problem `type` URIs point, spec §7.1) and the pages for people: `GET /` (to
 *    `/docs`) and `GET /docs`, the API reference (docs/api.md#api-reference-docs-and-get-v1openapijson)
 * 4. authentication of every `/v1` route and of the older unversioned ones (`/pipeline/…`, `/validate`, spec §4.12)
 *    (spec §5; with a control plane, organizations' API keys too, and on `GET /platform/v1/auth/verify`:
 *    docs/api.md#api-keys; with a control plane the methods catalog is served too,
 *    docs/api.md#methods-catalog), and of the MCP endpoint `/mcp` (docs/mcp.md); the operator routes `/admin/*` and
 *    `/metrics` need the
 *    operator credential, never a tenant's (Bearer, or on `/admin/*` HTTP Basic with it as the password, for
 *    browsers: `middleware/operator-auth.ts`)
 * 5. per-route body reading (415 for a body that is not JSON, 413); decoding (422) and zod request schema (422), in a
 * diagnostics thread for the
 *    diagnostic routes and for large run bodies (docs/isolation.md#request-bodies)
 * 6. route handler (a thin call into the core or an orchestrator; the run lifecycle routes read the run store and
 *    event log: Redis with a queue backend, this process's memory without; the cancel routes stop runs through the
 *    app's run control, docs/cancellation.md)
 * 7. known path, other method → 405 problem with `Allow`; unknown route → 404 problem without a `code` member
 * 8. the problem handler: every error as `application/problem+json` (spec §7)
 *
 * Every router is mounted through the {@link RouteRegistry}, with the descriptions of its routes: the OpenAPI document
 * of `GET /v1/openapi.json` is generated from them, so it lists exactly what this app serves.
 */
import express, { type Express } from 'express';
import { PooledTemplateRenderer } from '../shared/compute/index.js';
import type { ApiConfig } from '../shared/config/index.js';
import { createDocumentExtractor } from '../shared/inference/index.js';
import { createMethodFetcher } from '../shared/methods/index.js';
import { Metrics } from '../shared/observability/index.js';
import {
  type DispatchPolicy,
  directOrchestrator,
  type HistoryOutbox,
  localCatalogChanges,
  loggedRunObjects,
  memoryRuns,
  type Orchestrator,
  type RunEventLog,
  type RunObjects,
  type RunStore,
} from '../shared/orchestration/index.js';
import { randomIdSource } from '../shared/runtime/index.js';
import { openObjectStore } from '../shared/storage/index.js';
import { configureTemplateLimits } from '../shared/templating/index.js';
import { ADMIN_QUEUES_PATH, adminQueuesRouter } from './admin-queues.js';
import type { AppDeps } from './app-deps.js';
import { controlPlaneServices, mountControlPlaneRoutes } from './control-plane-app.js';
import { dispatchTermsOf } from './dispatch-terms.js';
import { errorPages } from './error-pages.js';
import { MCP_ROUTES, mcpRouter } from './mcp/mcp-route.js';
import { WaitSlots } from './mcp/mcp-services.js';
import { accessLog } from './middleware/access-log.js';
import { authenticate } from './middleware/authenticate.js';
import { bodySizeGuard } from './middleware/body-size-guard.js';
import { httpMetrics } from './middleware/http-metrics.js';
import { httpTracing } from './middleware/http-tracing.js';
import { methodNotAllowed } from './middleware/method-not-allowed.js';
import { operatorAuthenticate } from './middleware/operator-auth.js';
import { problemHandler, routeNotFound } from './middleware/problem-handler.js';
import { requestId } from './middleware/request-id.js';
import { AnswerCache } from './offload/answer-cache.js';
import { diagnosticsBundleChecker } from './offload/bundle-checker.js';
import { DiagnosticsPool } from './offload/diagnostics-pool.js';
import { RouteRegistry } from './openapi/route-registry.js';
import { Orchestration } from './orchestration.js';
import { Readiness } from './readiness.js';
import { consoleRouter } from './routes/console.js';
import { diagnosticRoutes } from './routes/diagnostic-route-specs.js';
import { diagnosticAnswerer, diagnosticsRouter } from './routes/diagnostics.js';
import { docsPageRouter, ROOT_ROUTE } from './routes/docs-page.js';
import { errorsRouter } from './routes/errors.js';
import { HEALTH_ROUTE, healthRouter } from './routes/health.js';
import { LEGACY_EXECUTE_ROUTE, LEGACY_START_ROUTE, legacyRunRouter } from './routes/legacy-run.js';
import { METRICS_PATH, METRICS_ROUTE, metricsRouter } from './routes/metrics.js';
import { MODELS_ROUTE, modelsRouter } from './routes/models.js';
import { OPENAPI_ROUTE, openApiRouter } from './routes/openapi.js';
import { READY_ROUTE, readyRouter } from './routes/ready.js';
import {
  RESOLVE_STORAGE_URL_ROUTE,
  RESOLVE_STORAGE_URLS_ROUTE,
  resolveStorageRouter,
} from './routes/resolve-storage.js';
import { EXECUTE_ROUTE, runRouter, START_ROUTE } from './routes/run.js';
import { RUN_CANCEL_ROUTE, runCancelRouter } from './routes/run-cancel.js';
import { RUN_EVENTS_ROUTE, runEventsRouter } from './routes/run-events.js';
import { RETRY_ROUTE, runRetryRouter } from './routes/run-retry.js';
import { RUNS_ROUTES, runsRouter } from './routes/runs.js';
import { SIGNED_UPLOAD_ROUTE, signedStorageRouter } from './routes/signed-storage.js';
import { STORAGE_OBJECT_ROUTE, storageRouter } from './routes/storage.js';
import { UPLOAD_GRANT_ROUTE, UPLOAD_ROUTE, uploadRouter } from './routes/uploads.js';
import { VERSION_ROUTE, versionRouter } from './routes/version.js';
import { type RunControl, runControl } from './run-control.js';
import { StorageLinks } from './storage-links.js';

export type { AppDeps } from './app-deps.js';

/** Embedded orchestration defaults: in-process runs, no per-request override (the packaged `api.toml`). */
const DIRECT_ONLY: ApiConfig = { orchestrationMode: 'direct', allowRequestOrchestrationModeOverride: false };

/** Where a deployment's runs are recorded: its Redis with a queue backend, else this process's memory. */
interface RunTracking {
  store: RunStore & HistoryOutbox;
  events: RunEventLog;
}

function runTracking(deps: AppDeps): RunTracking {
  if (deps.queueBackend) return { store: deps.queueBackend.registry, events: deps.queueBackend.events };
  const { queue, runLifecycle } = deps.settings;
  return memoryRuns({
    ttlSeconds: queue.runRecordTtlSeconds,
    maxRuns: runLifecycle.maxRecordsInMemory,
    maxBytes: runLifecycle.maxBytesInMemory,
    maxEventsPerRun: runLifecycle.maxEventsPerRun,
    now: deps.now ?? Date.now,
  });
}

function orchestrators(
  deps: AppDeps,
  metrics: Metrics,
  diagnostics: DiagnosticsPool,
  runs: RunTracking,
  objects: RunObjects,
  control: RunControl,
  dispatchTerms: DispatchPolicy,
): Map<string, Orchestrator> {
  const now = deps.now ?? Date.now;
  const direct = directOrchestrator({
    ...control,
    keepSubmissions: deps.controlPlane !== undefined,
    inference: deps.inference,
    extractor: deps.extractor ?? createDocumentExtractor(deps.settings.documents),
    templates: deps.templates ?? new PooledTemplateRenderer(deps.settings.templates),
    ids: deps.ids ?? randomIdSource(),
    now,
    metrics,
    bundles: diagnosticsBundleChecker(diagnostics, deps.modelDeck?.catalog()),
    runs: runs.store,
    events: runs.events,
    docsUrl: deps.settings.errorDocsUrl,
    logger: deps.logger,
    objects,
    batchConcurrency: deps.settings.fanOut.batchMaxParallel,
    maxPipes: deps.settings.runMaxPipes,
  });
  const registered = new Map<string, Orchestrator>([['direct', direct]]);
  if (deps.queueBackend) {
    registered.set(
      'bullmq',
      deps.queueBackend.orchestrator({
        metrics,
        executeTimeoutMs: deps.settings.queue.executeTimeoutMs,
        readSecret: deps.readSecret ?? (() => process.env['COMPLETION_CALLBACK_SECRET']),
        now,
        bundles: diagnosticsBundleChecker(diagnostics, deps.modelDeck?.catalog()),
        objects,
        keepSubmissions: deps.controlPlane !== undefined,
        policy: dispatchTerms,
      }),
    );
  }
  return registered;
}

/**
 * Build the application.
 * @param deps - settings, logger, runtime ports, orchestration and queue backend
 * @returns an Express app, not listening
 * @throws Error when the configured default mode needs a queue backend that was not given
 */
export function createApp(deps: AppDeps): Express {
  const { settings, logger } = deps;
  configureTemplateLimits({ maxOutputKib: settings.templates.maxOutputKib });
  const metrics = deps.metrics ?? new Metrics();
  const apiConfig = deps.apiConfig ?? DIRECT_ONLY;
  const diagnostics = deps.diagnostics ?? new DiagnosticsPool({ compute: settings.compute, metrics });
  const runs = runTracking(deps);
  const objects = deps.runObjects ?? loggedRunObjects(openObjectStore(settings.storage), settings.storage, logger);
  const store = objects.store;
  const control = runControl(deps, runs, objects, metrics);
  const dispatchTerms = dispatchTermsOf(deps);
  const orchestration = new Orchestration(
    apiConfig,
    orchestrators(deps, metrics, diagnostics, runs, objects, control, dispatchTerms),
  );
  const urlTtlSeconds = settings.storage.urlTtlSeconds;
  const links = new StorageLinks({
    store,
    urlTtlSeconds,
    grantTtlSeconds: settings.storage.uploads.grantTtlSeconds,
    secret: settings.storage.uploads.signingSecret,
    now: deps.now ?? Date.now,
  });
  if (apiConfig.orchestrationMode === 'bullmq' && !deps.queueBackend)
    throw new Error('orchestration_mode "bullmq" needs a queue backend');
  const maxBodyBytes = settings.maxRequestBodyMib * 1024 * 1024;
  const bodyLimits = { maxBodyBytes, maxJsonDepth: settings.maxJsonDepth, maxJsonValues: settings.maxJsonValues };
  const allowPrivateCallbackHosts = settings.callbacks.allowPrivateHosts;
  const app = express();
  app.disable('x-powered-by');
  app.use(httpTracing);
  app.use(requestId);
  app.use(accessLog(logger));
  app.use(httpMetrics(metrics));
  const routes = new RouteRegistry();
  app.use(routes.describe(signedStorageRouter(links), [SIGNED_UPLOAD_ROUTE]));
  app.use(bodySizeGuard(maxBodyBytes));
  const now = deps.now ?? Date.now;
  const services = controlPlaneServices(deps, runs.store, { settings, logger, now });
  const { catalog, runHistory, storeKeys } = services;
  const auth = authenticate(settings.auth, storeKeys);
  app.use('/v1', auth);
  // the older unversioned routes (spec §4.12) authenticate as /v1 does
  app.use(['/pipeline', '/validate'], auth);
  const methodFetcher = deps.methodFetcher ?? createMethodFetcher(settings, logger, { metrics }).fetcher;
  const runOptions = {
    ...bodyLimits,
    orchestration,
    allowPrivateCallbackHosts,
    runTimeoutMaxSeconds: settings.runTimeoutMaxSeconds,
    bundleLimits: settings.bundles,
    methodFetcher,
    diagnostics,
    links,
    objects,
    ...(runHistory ? { runHistory } : {}),
    catalog,
    rateShares: services.rateShares,
    dispatchTerms,
  };
  // the run routes ahead of every other router: a start or an execute scans no other router's routes
  // (docs/architecture.md#request-path); they are described below, where the API reference lists them
  const runRoutes = runRouter(runOptions);
  app.use(runRoutes);
  app.use(routes.describe(healthRouter(), [HEALTH_ROUTE]));
  const readiness = deps.readiness ?? new Readiness();
  if (deps.queueBackend) {
    const queueBackend = deps.queueBackend;
    readiness.probe('redis', (timeoutMs) => queueBackend.reachable(timeoutMs));
  }
  app.use(routes.describe(readyRouter(readiness), [READY_ROUTE]));
  app.use(errorsRouter(errorPages));
  app.use(routes.describe(docsPageRouter(), [ROOT_ROUTE]));
  app.use(consoleRouter());
  const catalogChanges = deps.queueBackend?.catalogChanges ?? localCatalogChanges();
  app.use(routes.describe(versionRouter({ extensions: services.extensions }), [VERSION_ROUTE]));
  app.use(routes.describe(openApiRouter(routes, { auth: settings.auth.mode }), [OPENAPI_ROUTE]));
  if (deps.modelDeck) app.use(routes.describe(modelsRouter(deps.modelDeck), [MODELS_ROUTE]));
  const diagnosticOptions = {
    ...bodyLimits,
    maxMthdsFileKib: settings.maxMthdsFileKib,
    orchestration,
    diagnostics,
    methodFetcher,
    ...(deps.modelDeck ? { models: deps.modelDeck.catalog() } : {}),
    answers: new AnswerCache(settings.compute.answerCacheMib * 2 ** 20),
    catalog,
  };
  app.use(routes.describe(diagnosticsRouter(diagnosticOptions), diagnosticRoutes(settings.maxMthdsFileKib)));
  routes.describe(runRoutes, [EXECUTE_ROUTE, START_ROUTE]);
  app.use(routes.describe(legacyRunRouter(runOptions), [LEGACY_EXECUTE_ROUTE, LEGACY_START_ROUTE]));
  app.use(routes.describe(runsRouter({ ...runs, disclosure: settings.errorDisclosure, objects, links }), RUNS_ROUTES));
  const retrier = deps.queueBackend?.retrier({
    objects,
    metrics,
    readSecret: deps.readSecret ?? (() => process.env['COMPLETION_CALLBACK_SECRET']),
    now,
    keepSubmissions: deps.controlPlane !== undefined,
    policy: dispatchTerms,
  });
  app.use(
    routes.describe(runRetryRouter({ retrier, store: runs.store, objects, ...(runHistory ? { runHistory } : {}) }), [
      RETRY_ROUTE,
    ]),
  );
  app.use(
    routes.describe(
      runCancelRouter({ ...runs, disclosure: settings.errorDisclosure, objects, stopper: control.stopper }),
      [RUN_CANCEL_ROUTE],
    ),
  );
  app.use(routes.describe(storageRouter({ store, urlTtlSeconds }), [STORAGE_OBJECT_ROUTE]));
  const linking = { ...bodyLimits, diagnostics, links };
  const uploads = {
    ...linking,
    maxUploadBytes: settings.storage.uploads.maxBytes,
    ...(runHistory ? { runHistory } : {}),
  };
  app.use(routes.describe(uploadRouter(uploads), [UPLOAD_ROUTE, UPLOAD_GRANT_ROUTE]));
  app.use(routes.describe(resolveStorageRouter(linking), [RESOLVE_STORAGE_URL_ROUTE, RESOLVE_STORAGE_URLS_ROUTE]));
  app.use(
    routes.describe(
      runEventsRouter({
        ...runs,
        disclosure: settings.errorDisclosure,
        maxStreams: settings.runLifecycle.maxEventStreams,
        idleMs: settings.runLifecycle.eventStreamIdleMs,
        heartbeatMs: settings.runLifecycle.eventStreamHeartbeatMs,
        logger,
      }),
      [RUN_EVENTS_ROUTE],
    ),
  );
  app.use('/mcp', auth);
  app.use(
    routes.describe(
      mcpRouter({
        ...bodyLimits,
        diagnostics,
        services: {
          runs: runOptions,
          ...runs,
          objects,
          links,
          disclosure: settings.errorDisclosure,
          stopper: control.stopper,
          diagnose: diagnosticAnswerer(diagnosticOptions),
          catalog,
          changes: catalogChanges,
          callWaitMs: settings.mcp.callWaitSeconds * 1000,
          waits: new WaitSlots(settings.runLifecycle.maxEventStreams),
          docsUrl: settings.errorDocsUrl,
          logger,
        },
      }),
      MCP_ROUTES,
    ),
  );
  mountControlPlaneRoutes(app, routes, services, {
    ...bodyLimits,
    settings,
    diagnostics,
    auth,
    objects,
    stopper: control.stopper,
    ...(deps.modelDeck ? { models: deps.modelDeck.catalog() } : {}),
    changes: catalogChanges,
    now,
  });
  const operators = { auth: settings.auth, operatorApiKey: settings.operatorApiKey, storeKeys };
  app.use('/admin', operatorAuthenticate({ ...operators, browser: true }));
  if (deps.queueBackend) {
    deps.queueBackend.watch(metrics);
    if (settings.adminQueuesEnabled)
      app.use(
        ADMIN_QUEUES_PATH,
        adminQueuesRouter(deps.queueBackend.queues, { readOnly: settings.adminQueuesReadOnly }),
      );
  }
  if (settings.metricsEnabled)
    app.use(
      METRICS_PATH,
      operatorAuthenticate({ ...operators, browser: false }),
      routes.describe(metricsRouter(metrics), [METRICS_ROUTE]),
    );
  app.use(methodNotAllowed);
  app.use(routeNotFound);
  app.use(problemHandler({ docsUrl: settings.errorDocsUrl, disclosure: settings.errorDisclosure, logger }));
  return app;
}
