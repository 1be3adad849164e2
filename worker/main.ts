/**
 * Entry point of a worker process (`npm run start:worker`): runs queued runs and delivers completion callbacks.
 * SIGTERM / SIGINT stop intake and let in-flight runs finish within `WORKER_SHUTDOWN_GRACE_MS`; the process has exited
 * at the latest one second after that (status 0 when all closed, 1 when cut short), and at once on a second signal.
 * An uncaught exception or unhandled rejection is logged with its run and exits with status 1 (docs/run-failures.md).
 * It also sweeps the `method_ref` clone cache (`METHOD_CACHE_DIR`) every `METHOD_CACHE_SWEEP_MINUTES`.
 * With `WORKER_METRICS_PORT` set, the process serves its Prometheus metrics at `http://0.0.0.0:<port>/metrics` (a port
 * it cannot listen on refuses to start: one line on stderr, exit status 1). Its startup line gives the version,
 * concurrency, inference profile (and whether it is the mock) and the Redis URL without credentials. With an OTLP
 * endpoint set it exports its spans (docs/tracing.md).
 */
import { createServer } from 'node:http';
import { CLOSE_ALLOWANCE_MS, shutdownOnSignals } from '../shared/lifecycle/index.js';
import { methodCache, startCacheSweep } from '../shared/methods/index.js';
import { startTracing } from '../shared/observability/index.js';
import { bootProcess, loadProcessSettings, redisUrlForLogs, refuseToStart } from '../shared/orchestration/index.js';
import { openRedis, startWorkerPool } from '../shared/orchestration/queued.js';

async function main(): Promise<void> {
  const configured = loadProcessSettings(process.env);
  const tracing = await startTracing('worker', process.env);
  const { settings, logger, resources, metrics, inference, startup } = bootProcess(
    'worker',
    configured,
    process.env,
    () => openRedis(configured.queue.redis, 'producer'),
  );
  resources.defer('tracing', () => tracing.shutdown());
  resources.defer('clone cache sweep', startCacheSweep(methodCache(settings, metrics), settings, logger));
  const pool = startWorkerPool({
    settings,
    logger,
    metrics,
    inference,
    readSecret: () => process.env['COMPLETION_CALLBACK_SECRET'],
  });
  resources.defer('worker pool', () => pool.close());
  const metricsServer =
    settings.worker.metricsPort > 0
      ? createServer(async (req, res) => {
          if (req.url === '/live') {
            const liveness = await pool.liveness();
            if (!liveness.live) logger.warn({ reason: liveness.reason }, 'worker:not live');
            return void res
              .writeHead(liveness.live ? 200 : 503, { 'content-type': 'application/json' })
              .end(JSON.stringify(liveness));
          }
          if (req.url !== '/metrics') return void res.writeHead(404).end();
          res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(await metrics.registry.metrics());
        })
          .once('error', (error) =>
            refuseToStart(
              `Cannot listen on port ${settings.worker.metricsPort} (WORKER_METRICS_PORT): ${error.message}; refusing to start`,
            ),
          )
          .listen(settings.worker.metricsPort)
      : undefined;
  if (metricsServer) {
    resources.defer('metrics server', () => {
      metricsServer.close();
      metricsServer.closeAllConnections();
    });
  }
  const redisUrl = redisUrlForLogs(settings.queue.redis.url);
  logger.info(
    {
      ...startup,
      concurrency: settings.worker.concurrency,
      redis_url: redisUrl,
      queue_prefix: settings.queue.prefix,
    },
    'worker started',
  );
  shutdownOnSignals({ logger, resources, deadlineMs: settings.worker.shutdownGraceMs + CLOSE_ALLOWANCE_MS });
}

await main();
