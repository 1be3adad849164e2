/**
 * The control plane in the app (docs/control-plane.md): what it opens once its database is open — the tenants
 * (organizations and their API keys), the methods catalog, the run history with its idempotency keys and usage ledger
 * — the `extensions` they make `GET /v1/version` list, and the routes that serve them. Without a database none of it
 * exists, and those routes are unknown routes.
 */
import type { Express } from 'express';
import type { Settings } from '../shared/config/index.js';
import type { Logger } from '../shared/observability/index.js';
import type { CatalogChanges, HistoryOutbox, RunStopper } from '../shared/orchestration/index.js';
import type { AppDeps } from './app-deps.js';
import type { JsonBodyLimits } from './body/json-body.js';
import { type MethodCatalog, openMethodCatalog } from './method-catalog.js';
import { storeKeyLookup } from './middleware/store-key-lookup.js';
import type { DiagnosticsPool } from './offload/diagnostics-pool.js';
import type { RouteRegistry } from './openapi/route-registry.js';
import { rateShareLookup } from './rate-tenants.js';
import { API_KEY_ROUTES, apiKeysRouter } from './routes/api-keys.js';
import { AUTH_VERIFY_ROUTES, callerRouter, ME_ROUTE } from './routes/caller.js';
import { methodRoutes } from './routes/method-route-specs.js';
import { methodsRouter } from './routes/methods.js';
import {
  CREATE_ORGANIZATION_ROUTE,
  DISPATCH_TERMS_ROUTE,
  organizationsRouter,
  RATE_SHARE_ROUTE,
} from './routes/organizations.js';
import { RUN_BULK_CANCEL_ROUTE, runBulkCancelRouter } from './routes/run-bulk-cancel.js';
import { RUN_HISTORY_ROUTES, runHistoryRouter } from './routes/run-history.js';
import { openRunHistory, type RunHistoryService } from './run-history-service.js';
import { openTenancy, type Tenancy } from './tenancy.js';

/** The control plane's services, each once its database is open; all absent without a database. */
export interface ControlPlaneServices {
  tenancy?: Promise<Tenancy>;
  catalog?: Promise<MethodCatalog>;
  runHistory?: Promise<RunHistoryService>;
  /** Verifies organizations' API keys for authentication (a short cache over the tenancy). */
  storeKeys?: ReturnType<typeof storeKeyLookup>;
  /** Reads organizations' own shares of the provider rate limits (a short cache over the tenancy). */
  rateShares?: ReturnType<typeof rateShareLookup>;
  /** What `GET /v1/version` lists as `extensions`. */
  extensions: string[];
}

/**
 * Open the control plane's services over the app's database, if any.
 * @param deps - the app's dependencies: the database, its resource list, the erasure scheduler
 * @param outbox - the run store's history outbox
 * @param context - settings, logger and clock
 */
export function controlPlaneServices(
  deps: AppDeps,
  outbox: HistoryOutbox,
  context: { settings: Settings; logger: Logger; now: () => number },
): ControlPlaneServices {
  if (!deps.controlPlane) return { extensions: [] };
  const { settings, now } = context;
  const tenancy = openTenancy(deps.controlPlane, { maxKeysPerOrganization: settings.apiKeys.maxPerOrganization, now });
  const catalog = openMethodCatalog(deps.controlPlane, {
    now,
    ...(deps.methodErasure ? { erasure: deps.methodErasure } : {}),
  });
  const runHistory = openRunHistory(deps.controlPlane, {
    outbox,
    logger: context.logger,
    retentionDays: settings.runHistory.retentionDays,
    idempotencyTtlHours: settings.idempotency.ttlHours,
    sweepPeriodMs: settings.storage.sweepMinutes * 60_000,
    now,
    ...(deps.resources ? { resources: deps.resources } : {}),
  });
  return {
    tenancy,
    catalog,
    runHistory,
    storeKeys: storeKeyLookup(tenancy, { now }),
    rateShares: rateShareLookup(tenancy, { now }),
    extensions: ['api_keys', 'methods', 'method_versions', 'runs', 'usage'],
  };
}

/** What the control plane's routes share with the rest of the app. */
export interface ControlPlaneRouteOptions extends JsonBodyLimits {
  settings: Settings;
  diagnostics: DiagnosticsPool;
  /** The authentication middleware (`GET /v1/me` and the verify routes describe its verdict). */
  auth: Parameters<typeof callerRouter>[0];
  /** Where the runs as sent are kept (`GET /v1/runs/{id}`). */
  objects: Parameters<typeof runHistoryRouter>[0]['objects'];
  /** The model deck's catalog, which judges saved drafts as `POST /v1/validate` does. */
  models?: Parameters<typeof methodsRouter>[0]['models'];
  /** Stops runs (the bulk cancel, docs/cancellation.md#bulk-cancel). */
  stopper: RunStopper;
  /** Where the catalog's changes are announced (the MCP endpoint's tool lists, docs/mcp.md#tool-list-changes). */
  changes: CatalogChanges;
  now: () => number;
}

/**
 * Mount the routes of the control plane's services (run history and usage, the bulk cancel, the caller,
 * organizations, API keys, the methods catalog).
 * @param app - the app
 * @param routes - where each route's description goes
 * @param services - the open services
 * @param options - body limits, settings, pool, authentication, run objects, model deck, clock
 */
export function mountControlPlaneRoutes(
  app: Express,
  routes: RouteRegistry,
  services: ControlPlaneServices,
  options: ControlPlaneRouteOptions,
): void {
  const { settings, diagnostics, now } = options;
  const bodyLimits = {
    maxBodyBytes: options.maxBodyBytes,
    maxJsonDepth: options.maxJsonDepth,
    maxJsonValues: options.maxJsonValues,
  };
  const { runHistory, tenancy, catalog } = services;
  if (runHistory) {
    const history = runHistoryRouter({
      ...bodyLimits,
      service: runHistory,
      objects: options.objects,
      diagnostics,
      now,
    });
    app.use(routes.describe(history, RUN_HISTORY_ROUTES));
    const bulkCancel = runBulkCancelRouter({
      ...bodyLimits,
      service: runHistory,
      stopper: options.stopper,
      diagnostics,
    });
    app.use(routes.describe(bulkCancel, [RUN_BULK_CANCEL_ROUTE]));
  }
  if (tenancy) {
    const tenancyOptions = { ...bodyLimits, tenancy, diagnostics };
    app.use(routes.describe(callerRouter(options.auth), [ME_ROUTE, ...AUTH_VERIFY_ROUTES]));
    app.use(
      routes.describe(organizationsRouter(tenancyOptions), [
        CREATE_ORGANIZATION_ROUTE,
        DISPATCH_TERMS_ROUTE,
        RATE_SHARE_ROUTE,
      ]),
    );
    app.use(routes.describe(apiKeysRouter({ ...tenancyOptions, now }), API_KEY_ROUTES));
  }
  if (catalog) {
    const limits = {
      maxMthdsFileKib: settings.maxMthdsFileKib,
      maxFiles: settings.bundles.maxFiles,
      maxTotalBytes: settings.bundles.maxTotalBytes,
    };
    const judge = { diagnostics, ...(options.models ? { models: options.models } : {}) };
    const methods = methodsRouter({
      ...bodyLimits,
      ...judge,
      catalog,
      limits,
      changes: options.changes,
      ...(runHistory ? { runHistory } : {}),
    });
    app.use(routes.describe(methods, methodRoutes(limits)));
  }
}
