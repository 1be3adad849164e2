/**
 * Entry point of the API process.
 *
 * `npm start` (`tsx api/server.ts`): reads settings and `api.toml`, picks the inference backend (mock unless a provider
 * key is set, and then loudly labelled), and listens on `PORT` (default 8081). In the default `direct` mode it needs
 * nothing but Node. When the deployment's mode is `bullmq` it connects to Redis and, unless started with
 * `--no-worker` (`npm run start:api`), also runs a worker pool in the same process, so one command serves a single
 * machine. The `method_ref` clone cache is swept periodically in direct mode and whenever this process runs workers.
 * Exits with status 1 and a message naming the variable when the configuration is invalid.
 */
import { loadApiConfig, loadSettings, SettingsError, type ApiConfig, type Settings } from '../shared/config/index.js';
import { meteredBackend, selectInferenceBackend } from '../shared/inference/index.js';
import { createMethodFetcher, startCacheSweep } from '../shared/methods/index.js';
import { createLogger, Metrics } from '../shared/observability/index.js';
import { openQueueBackend } from '../shared/queue/index.js';
import { startWorkerPool, type WorkerPool } from '../shared/workers/index.js';
import { createApp } from './app.js';
import { DiagnosticsPool } from './offload/diagnostics-pool.js';

function configuration(): { settings: Settings; apiConfig: ApiConfig } {
  try {
    const settings = loadSettings(process.env);
    return { settings, apiConfig: loadApiConfig(settings.serviceConfigDir, settings.serviceEnv) };
  } catch (error) {
    if (error instanceof SettingsError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

function main(): void {
  const { settings, apiConfig } = configuration();
  const logger = createLogger(settings.logLevel, 'api');
  const metrics = new Metrics();
  const backend = selectInferenceBackend(settings.inference, settings.serviceConfigDir, process.env);
  if (backend.isMock) {
    logger.warn(
      'MOCK INFERENCE: no provider is configured (set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY; or INFERENCE_PROFILE=mock is forcing it). Every LLM output of this server is deterministic placeholder text, not a model answer.',
    );
  } else {
    logger.info({ backend: backend.name }, 'inference backend selected');
  }
  if (settings.callbacks.allowPrivateHosts) logger.warn('CALLBACK_ALLOW_PRIVATE_HOSTS=true: callbacks may reach private and loopback hosts (development and tests only).');
  const inference = meteredBackend(backend, metrics);
  const queued = apiConfig.orchestrationMode !== 'direct';
  const queueBackend = queued ? openQueueBackend(settings) : undefined;
  const readSecret = () => process.env['COMPLETION_CALLBACK_SECRET'];
  const pool: WorkerPool | undefined =
    queued && !process.argv.includes('--no-worker') ? startWorkerPool({ settings, logger, metrics, inference, readSecret }) : undefined;
  const methods = createMethodFetcher(settings, logger, metrics);
  if (!queued || pool) startCacheSweep(methods.cache, settings, logger);
  const diagnostics = new DiagnosticsPool({ compute: settings.compute, metrics, keepWarm: true });
  const app = createApp({ settings, logger, inference, modelDeck: backend.deck, apiConfig, metrics, readSecret, methodFetcher: methods.fetcher, diagnostics, ...(queueBackend ? { queueBackend } : {}) });
  const server = app.listen(settings.port, settings.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : settings.port;
    logger.info(
      { port, auth_mode: settings.auth.mode, orchestration_mode: apiConfig.orchestrationMode, in_process_worker: pool !== undefined },
      `MTHDS runner listening on http://${settings.host}:${port}`,
    );
    diagnostics.warm().catch((error: unknown) => logger.error({ err: error }, 'the diagnostics threads failed to load'));
  });
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close(() => {
      void Promise.all([pool?.close(), queueBackend?.close(), diagnostics.close()]).then(() => process.exit(0));
    });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main();
