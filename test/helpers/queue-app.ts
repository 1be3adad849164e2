/**
 * A queue-mode deployment for in-process tests: the API app on the `bullmq` orchestrator (serving the model deck of
 * its inference backend, as `npm start` does), a worker pool in the same process, and a unique Redis prefix cleaned up
 * on close.
 */
import type { Express } from 'express';
import { createApp } from '../../api/app.js';
import type { ApiConfig, Environment, Settings } from '../../shared/config/index.js';
import type { ControlPlaneDatabase } from '../../shared/database/index.js';
import { selectInferenceBackend } from '../../shared/inference/index.js';
import { ResourceStack } from '../../shared/lifecycle/index.js';
import { createLogger, Metrics } from '../../shared/observability/index.js';
import type { QueueBackend, WorkerPool } from '../../shared/orchestration/index.js';
import { openQueueBackend, startWorkerPool } from '../../shared/orchestration/queued.js';
import { testSettings } from './config-dir.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, uniquePrefix } from './redis.js';
import { sharedDiagnostics } from './test-app.js';

/** A running queue-mode deployment. */
export interface QueueDeployment {
  app: Express;
  settings: Settings;
  backend: QueueBackend;
  pool: WorkerPool | undefined;
  close(): Promise<void>;
}

/** Options of {@link startQueueDeployment}. */
export interface QueueDeploymentOptions {
  environment?: Environment;
  apiConfig?: ApiConfig;
  /** Value `COMPLETION_CALLBACK_SECRET` reads as; unset by default. */
  secret?: string;
  /** Start the in-process worker pool (default true). */
  workers?: boolean;
  /**
   * An open control plane (docs/control-plane.md), whose routes the app then serves and where it keeps its history and
   * keys (the test closes it); none by default.
   */
  controlPlane?: ControlPlaneDatabase;
}

/**
 * Start a deployment.
 * @param options - environment, api.toml settings, callback secret, workers on or off, control plane
 */
export function startQueueDeployment(options: QueueDeploymentOptions = {}): QueueDeployment {
  const prefix = uniquePrefix();
  // a Redis of the test's own (options.environment's REDIS_URL) takes none of the test Redis's TLS files
  const redis = options.environment?.['REDIS_URL'] === undefined ? TEST_REDIS_ENVIRONMENT : {};
  const environment = { ...redis, QUEUE_PREFIX: prefix, ...options.environment };
  const settings = testSettings(environment);
  const logger = createLogger('silent', 'test');
  const metrics = new Metrics();
  const inference = selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment);
  const readSecret = () => options.secret;
  const backend = openQueueBackend(settings);
  const pool =
    options.workers === false ? undefined : startWorkerPool({ settings, logger, metrics, inference, readSecret });
  const resources = new ResourceStack();
  const app = createApp({
    settings,
    logger,
    inference,
    modelDeck: inference.deck,
    metrics,
    readSecret,
    queueBackend: backend,
    diagnostics: sharedDiagnostics(environment),
    apiConfig: options.apiConfig ?? { orchestrationMode: 'bullmq', allowRequestOrchestrationModeOverride: false },
    ...(options.controlPlane ? { controlPlane: Promise.resolve(options.controlPlane), resources } : {}),
  });
  return {
    app,
    settings,
    backend,
    pool,
    async close() {
      await resources.close();
      await pool?.close();
      await backend.close();
      await deletePrefix(prefix);
    },
  };
}
