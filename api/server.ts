/**
 * Entry point of the API process.
 *
 * `npm start` (its compiled form, `node dist/api/server.js`; `npm run dev` runs this source under tsx): reads settings
 * and `api.toml`, picks the inference backend (mock unless a provider key is set, and then loudly labelled), starts
 * warming its diagnostics threads (`GET /ready` answers 200 once they and their formatter are loaded) and listens on
 * `PORT` (default 8081). In the default `direct` mode it needs
 * nothing but Node. When the deployment's mode is `bullmq` it connects to Redis and, unless started with
 * `--no-worker` (`npm run start:api`), also runs a worker pool in the same process, so one command serves a single
 * machine. Its HTTP server caps connections (in all and per client address) and bounds the time to receive a request
 * (`HTTP_*`, docs/limits.md#connections). The `method_ref` clone cache is swept periodically in direct mode and
 * whenever this process runs workers;
 * the control-plane database (`DATABASE_URL`, else the embedded one; docs/control-plane.md) is opened and migrated,
 * a new embedded one before listening, an existing one or PostgreSQL while listening (`GET /ready` waits for it); a
 * database it cannot open
 * stops the process with one line;
 * run storage (`STORAGE_BACKEND`) is swept of objects past their retention every `STORAGE_SWEEP_MINUTES`
 * (docs/storage.md#retention).
 * Refuses to start (one line on stderr naming the variable or file, exit status 1) when the configuration is invalid or
 * the address cannot be listened on. Once listening it logs one startup line: version, address, orchestration mode,
 * inference profile (and whether it is the mock), auth mode and, in queue mode, the Redis URL without credentials.
 *
 * SIGTERM / SIGINT release what the process opened, last opened first (HTTP server, worker pool, queue backend): open
 * requests get `SHUTDOWN_GRACE_MS`, in-process runs `WORKER_SHUTDOWN_GRACE_MS`; the process has exited at the latest
 * the larger of the two plus one second after the signal (status 0 when all closed, 1 when cut short), and at once on
 * a second signal. An uncaught exception or unhandled rejection is logged with its request and exits with status 1
 * (docs/run-failures.md).
 */
import { PooledTemplateRenderer } from '../shared/compute/index.js';
import { loadApiConfig, SettingsError } from '../shared/config/index.js';
import { embeddedDatabaseExists, openDatabase } from '../shared/database/index.js';
import { CLOSE_ALLOWANCE_MS, shutdownOnSignals } from '../shared/lifecycle/index.js';
import { createMethodFetcher, startCacheSweep } from '../shared/methods/index.js';
import { startTracing } from '../shared/observability/index.js';
import {
  bootProcess,
  configurationOrExit,
  loadProcessSettings,
  loggedRunObjects,
  redisUrlForLogs,
  refuseToStart,
  startStorageSweep,
  type WorkerPool,
} from '../shared/orchestration/index.js';
import { openObjectStore } from '../shared/storage/index.js';
import { createApp } from './app.js';
import { closeServer } from './close-server.js';
import { createHttpServer } from './http-server.js';
import { DiagnosticsPool } from './offload/diagnostics-pool.js';
import { Readiness } from './readiness.js';

async function main(): Promise<void> {
  const configured = loadProcessSettings(process.env);
  const apiConfig = configurationOrExit(() => loadApiConfig(configured.serviceConfigDir, configured.serviceEnv));
  const queued = apiConfig.orchestrationMode !== 'direct';
  const queueMode = queued ? await import('../shared/orchestration/queued.js') : undefined;
  const tracing = await startTracing('api', process.env);
  const { settings, logger, resources, metrics, backend, inference, startup } = bootProcess(
    'api',
    configured,
    process.env,
    queueMode && (() => queueMode.openRedis(configured.queue.redis, 'producer')),
  );
  resources.defer('tracing', () => tracing.shutdown());
  const queueBackend = queueMode?.openQueueBackend(settings);
  if (queueBackend) resources.defer('queue backend', () => queueBackend.close());
  const readSecret = () => process.env['COMPLETION_CALLBACK_SECRET'];
  const pool: WorkerPool | undefined =
    queueMode && !process.argv.includes('--no-worker')
      ? queueMode.startWorkerPool({ settings, logger, metrics, inference, readSecret })
      : undefined;
  if (pool) resources.defer('worker pool', () => pool.close());
  const objectStore = openObjectStore(settings.storage);
  const runObjects = loggedRunObjects(objectStore, settings.storage, logger);
  resources.defer('object store', async () => {
    await runObjects.flush();
    objectStore.close();
  });
  resources.defer('storage sweep', startStorageSweep(objectStore, settings.storage, logger));
  const controlPlane = (async () => {
    if (queueBackend && settings.database.url === undefined) {
      resources.defer('embedded database lease', await queueBackend.claimEmbeddedDatabase());
    }
    return openDatabase(settings.database);
  })();
  controlPlane.then(
    (database) => resources.defer('control-plane database', () => database.close()),
    (error: unknown) =>
      refuseToStart(
        error instanceof SettingsError
          ? error.message
          : `Cannot open the control-plane database (DATABASE_URL, DATABASE_EMBEDDED_DIR): ${error instanceof Error ? error.message : String(error)}; refusing to start`,
      ),
  );
  const methods = createMethodFetcher(settings, logger, { metrics });
  if (!queued || pool) resources.defer('clone cache sweep', startCacheSweep(methods.cache, settings, logger));
  const templates = new PooledTemplateRenderer(settings.templates);
  resources.defer('template render threads', () => templates.close());
  const diagnostics = new DiagnosticsPool({ compute: settings.compute, metrics, keepWarm: true });
  resources.defer('diagnostics threads', () => diagnostics.close());
  const readiness = new Readiness();
  const warming = diagnostics.warm();
  warming.catch((error: unknown) => logger.error({ err: error }, 'the diagnostics threads failed to load'));
  readiness.track('diagnostics_threads', warming);
  readiness.track('control_plane_database', controlPlane);
  // creating a fresh embedded database takes seconds (in its own thread): it is created before the server listens, so
  // no client's first request waits for it; an existing one reopens while the server listens, behind /ready
  if (settings.database.url === undefined && !embeddedDatabaseExists(settings.database.embeddedDir))
    await controlPlane.catch(() => undefined);
  const app = createApp({
    settings,
    logger,
    inference,
    modelDeck: backend.deck,
    apiConfig,
    metrics,
    readSecret,
    methodFetcher: methods.fetcher,
    templates,
    diagnostics,
    readiness,
    runObjects,
    controlPlane,
    resources,
    ...(queueBackend ? { queueBackend } : {}),
  });
  const server = createHttpServer(app, settings.http, (reason) => metrics.httpConnectionsRefused.inc({ reason }));
  const cannotListen = (error: Error) =>
    refuseToStart(
      `Cannot listen on ${settings.host}:${settings.port} (HOST, PORT): ${error.message}; refusing to start`,
    );
  server.once('error', cannotListen);
  server.listen(settings.port, settings.host, () => {
    // once listening, an error of the server (a connection it could not accept) is logged; the server goes on
    server.off('error', cannotListen);
    server.on('error', (error) => logger.error({ err: error }, 'http:server error'));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : settings.port;
    const redisUrl = queued ? redisUrlForLogs(settings.queue.redis.url) : undefined;
    const inference = `inference ${startup.inference_profile}${startup.mock_inference ? ' (MOCK)' : ''}`;
    logger.info(
      {
        ...startup,
        port,
        host: settings.host,
        orchestration_mode: apiConfig.orchestrationMode,
        in_process_worker: pool !== undefined,
        auth_mode: settings.auth.mode,
        storage_backend: settings.storage.backend,
        ...(redisUrl ? { redis_url: redisUrl, queue_prefix: settings.queue.prefix } : {}),
      },
      `MTHDS runner ${startup.version} listening on http://${settings.host}:${port} (orchestration ${apiConfig.orchestrationMode}, ${inference}, auth ${settings.auth.mode}${redisUrl ? `, redis ${redisUrl}` : ''})`,
    );
  });
  resources.defer('http server', () => closeServer(server, settings.shutdownGraceMs));
  const graceMs = Math.max(settings.shutdownGraceMs, pool ? settings.worker.shutdownGraceMs : 0);
  shutdownOnSignals({ logger, resources, deadlineMs: graceMs + CLOSE_ALLOWANCE_MS });
}

await main();
