/**
 * What the API app is built from ({@link AppDeps}): settings, logger, runtime ports, orchestration, and the stores the
 * entry point opens.
 */
import type { ApiConfig, Settings } from '../shared/config/index.js';
import type { ControlPlaneDatabase } from '../shared/database/index.js';
import type { ModelDeck } from '../shared/inference/index.js';
import type { MethodFetcher } from '../shared/methods/index.js';
import type { Logger, Metrics } from '../shared/observability/index.js';
import type { QueueBackend, RunObjects } from '../shared/orchestration/index.js';
import type { DocumentExtractorPort, IdSource, InferencePort, TemplateRenderer } from '../shared/runtime/index.js';
import type { ErasureScheduler } from './method-catalog.js';
import type { DiagnosticsPool } from './offload/diagnostics-pool.js';
import type { Readiness } from './readiness.js';
import type { ReleaseList } from './run-history-service.js';

/** What the app is built from. Tests pass their own settings, a silent logger and their inference backend. */
export interface AppDeps {
  settings: Settings;
  logger: Logger;
  /** The inference backend direct runs call (mock or a provider). */
  inference: InferencePort;
  /** The model deck served by `GET /v1/models` (the route is absent without one). */
  modelDeck?: ModelDeck;
  /** Reads documents for PipeExtract; the embedded PDF text extractor by default. */
  extractor?: DocumentExtractorPort;
  /** Fetches method packages by address (`method_ref`); built from the settings when absent. */
  methodFetcher?: MethodFetcher;
  /** Orchestration settings (`api.toml`); direct only by default. */
  apiConfig?: ApiConfig;
  /** The queue backend; required when a non-direct mode can be selected. */
  queueBackend?: QueueBackend;
  metrics?: Metrics;
  /** Reads `COMPLETION_CALLBACK_SECRET` when a callback must be signed; the environment by default. */
  readSecret?: () => string | undefined;
  /** Stuff-code source of direct runs; random by default (the dry runs of the diagnostics pool draw random codes). */
  ids?: IdSource;
  /** Clock of direct runs in epoch milliseconds; `Date.now` by default (the diagnostics pool reads the real clock). */
  now?: () => number;
  /**
   * Renders the templates of direct runs; by default a {@link PooledTemplateRenderer} built from the settings (the
   * entry point passes its own, to close it on shutdown).
   */
  templates?: TemplateRenderer;
  /**
   * Where the diagnostic and tooling routes compute (docs/isolation.md#diagnostics-pool); its owner closes it. By
   * default one is built from `settings.compute` whose threads start on demand and leave when idle.
   */
  diagnostics?: DiagnosticsPool;
  /**
   * The checks of `GET /ready`; the entry point tracks its warm-ups there. With a queue backend the app adds a Redis
   * probe. By default none besides it (an app built in-process is ready at once).
   */
  readiness?: Readiness;
  /**
   * Where run objects are kept (docs/storage.md); by default in the store `STORAGE_BACKEND` selects (the entry point
   * passes its own, to sweep its store, flush its result writes and close it on shutdown).
   */
  runObjects?: RunObjects;
  /**
   * The control plane's database, as it opens (docs/control-plane.md): the routes of what it keeps (API keys) are
   * served only with it. The entry point opens it and closes it on shutdown.
   */
  controlPlane?: Promise<ControlPlaneDatabase>;
  /**
   * Where the app's background work on the control plane (the history writer, the retention sweep) is stopped: the
   * entry point's resource stack; tests pass their own. Without it that work runs until the process ends.
   */
  resources?: ReleaseList;
  /**
   * Runs the erasure of a deleted method (docs/api.md#methods-catalog); at once, in the background, by default. Tests
   * pass one that holds erasures, to see a method while it is being deleted.
   */
  methodErasure?: ErasureScheduler;
}
