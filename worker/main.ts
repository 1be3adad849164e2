/**
 * Entry point of a worker process (`npm run start:worker`): runs queued runs and delivers completion callbacks.
 * SIGTERM / SIGINT stop intake and let in-flight runs finish within `WORKER_SHUTDOWN_GRACE_MS`; the process has exited
 * at the latest one second after that (status 0 when all closed, 1 when cut short), and at once on a second signal.
 * An uncaught exception or unhandled rejection is logged with its run and exits with status 1 (docs/run-failures.md).
 * It also sweeps the `method_ref` clone cache (`METHOD_CACHE_DIR`) every `METHOD_CACHE_SWEEP_MINUTES`.
 * With `WORKER_METRICS_PORT` set, the process serves its Prometheus metrics at `http://0.0.0.0:<port>/metrics`.
 */
import { createServer } from 'node:http';
import { loadSettings, SettingsError } from '../shared/config/index.js';
import { meteredBackend, selectInferenceBackend } from '../shared/inference/index.js';
import { methodCache, startCacheSweep } from '../shared/methods/index.js';
import { CLOSE_ALLOWANCE_MS, ResourceStack, installFatalErrorPolicy, shutdownOnSignals } from '../shared/lifecycle/index.js';
import { createLogger, Metrics } from '../shared/observability/index.js';
import { startWorkerPool } from '../shared/workers/index.js';

function main(): void {
  let settings;
  try {
    settings = loadSettings(process.env);
  } catch (error) {
    if (error instanceof SettingsError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(settings.logLevel, 'worker');
  installFatalErrorPolicy(logger);
  const resources = new ResourceStack();
  const metrics = new Metrics();
  const backend = selectInferenceBackend(settings.inference, settings.serviceConfigDir, process.env);
  if (backend.isMock) logger.warn('MOCK INFERENCE: no provider is configured; every LLM output of this worker is placeholder text.');
  if (settings.callbacks.allowPrivateHosts) logger.warn('CALLBACK_ALLOW_PRIVATE_HOSTS=true: callbacks may reach private and loopback hosts (development and tests only).');
  resources.defer('clone cache sweep', startCacheSweep(methodCache(settings, metrics), settings, logger));
  const pool = startWorkerPool({ settings, logger, metrics, inference: meteredBackend(backend, metrics), readSecret: () => process.env['COMPLETION_CALLBACK_SECRET'] });
  resources.defer('worker pool', () => pool.close());
  const metricsServer = settings.worker.metricsPort > 0
    ? createServer(async (req, res) => {
        if (req.url !== '/metrics') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(await metrics.registry.metrics());
      }).listen(settings.worker.metricsPort)
    : undefined;
  if (metricsServer) {
    resources.defer('metrics server', () => {
      metricsServer.close();
      metricsServer.closeAllConnections();
    });
  }
  logger.info({ concurrency: settings.worker.concurrency, queue_prefix: settings.queue.prefix }, 'worker started');
  shutdownOnSignals({ logger, resources, deadlineMs: settings.worker.shutdownGraceMs + CLOSE_ALLOWANCE_MS });
}

main();
