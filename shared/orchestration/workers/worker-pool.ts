/**
 * The worker pool of one process: a run worker, a child worker (the child jobs of fanned-out runs, docs/fan-out.md)
 * and a callback worker on BullMQ, the holds of the runs it runs with its subscription to the deployment's stops
 * (docs/cancellation.md), with stalled-job recovery (a job whose
 * worker died is retaken once its lock expires, at most {@link MAX_STALLED_COUNT} time; a retaken run runs in
 * quarantine, see docs/run-failures.md) and a bounded `close()` that stops intake and lets in-flight runs finish within
 * a grace period.
 */
import { Queue, Worker } from 'bullmq';
import { PooledTemplateRenderer } from '../../compute/index.js';
import type { Settings } from '../../config/index.js';
import { createDocumentExtractor } from '../../inference/index.js';
import { CLOSE_ALLOWANCE_MS, settleWithin } from '../../lifecycle/index.js';
import { type Logger, type Metrics, swallowedErrors } from '../../observability/index.js';
import { DEFAULT_BATCH_CONCURRENCY, type InferencePort, randomIdSource } from '../../runtime/index.js';
import { openObjectStore } from '../../storage/index.js';
import { configureTemplateLimits } from '../../templating/index.js';
import { RunCheckpoints } from '../checkpoints/index.js';
import { RunControls, RunStopper } from '../control/index.js';
import { RedisStopChannel } from '../control/redis-stop-channel.js';
import {
  CALLBACK_QUEUE,
  CallbackQueue,
  CHILD_QUEUE,
  ChildQueue,
  JobSeals,
  QueueKeys,
  RedisConnections,
  RUN_QUEUE,
  RunQueue,
} from '../queue/index.js';
import { dispatchGate, redisRunTracking } from '../redis-run-tracking.js';
import { loggedRunObjects } from '../storage/index.js';
import { createCallbackProcessor } from './callback-processor.js';
import { CallbackSender } from './callback-sender.js';
import { createChildProcessor } from './child-processor.js';
import { QuarantinePool } from './run-in-quarantine.js';
import { createRunProcessor } from './run-processor.js';
import { failRunsStalledTooOften } from './stalled-run-failures.js';
import { type Liveness, WorkerLiveness } from './worker-liveness.js';

/**
 * Retakes of a job whose worker died (BullMQ `maxStalledCount`): one, so a run whose worker was lost to a deploy or a
 * node failure is not lost, and a run that kills its worker kills at most one (its retake runs in quarantine).
 */
const MAX_STALLED_COUNT = 1;

/** What the pool is built from. */
export interface WorkerPoolDeps {
  settings: Settings;
  logger: Logger;
  metrics: Metrics;
  inference: InferencePort;
  /** Reads `COMPLETION_CALLBACK_SECRET` when a callback is signed. */
  readSecret(): string | undefined;
}

/** A running pool. */
export interface WorkerPool {
  readonly runWorker: Worker;
  readonly callbackWorker: Worker;
  /** Takes the child jobs of fanned-out runs (docs/fan-out.md). */
  readonly childWorker: Worker;
  /**
   * Whether its workers still take the jobs waiting for them (docs/redis.md#failover).
   * @returns live, or why not
   */
  liveness(): Promise<Liveness>;
  /**
   * Stop taking jobs; wait up to `WORKER_SHUTDOWN_GRACE_MS` for in-flight jobs (not at all when Redis is unreachable,
   * since they could not record their outcome), then drop the rest (stalled-job recovery retakes them), stop the
   * template render threads and disconnect from Redis without waiting for replies. Resolves within the grace period
   * plus {@link CLOSE_ALLOWANCE_MS}.
   */
  close(): Promise<void>;
}

/**
 * Start the workers.
 * @param deps - settings, logger, metrics, inference and the secret reader
 */
export function startWorkerPool(deps: WorkerPoolDeps): WorkerPool {
  const { settings, logger, metrics } = deps;
  const keys = new QueueKeys(settings.queue.prefix);
  const connections = new RedisConnections(settings.queue.redis);
  const registryConnection = connections.open('worker', true);
  const { registry, events } = redisRunTracking(settings, registryConnection, keys);
  const seals = new JobSeals(registryConnection, keys);
  // where the runs a finish here hands a slot of the dispatch gate are added (docs/fair-dispatch.md)
  const runQueue = new RunQueue({
    connection: connections.open('worker'),
    eventsConnection: () => connections.open('worker'),
    keys,
    seals,
    maxAttempts: settings.queue.runMaxAttempts,
    keepSeconds: settings.queue.runRecordTtlSeconds,
  });
  const gate = dispatchGate(registry, registryConnection, keys, runQueue);
  const callbackQueue = new CallbackQueue({
    connection: connections.open('worker'),
    keys,
    seals,
    maxAttempts: settings.callbacks.maxAttempts,
    backoffMs: settings.callbacks.backoffMs,
  });
  const callbackAttempts = {
    readSecret: deps.readSecret,
    now: Date.now,
    timeoutMs: settings.callbacks.timeoutMs,
    allowPrivateHosts: settings.callbacks.allowPrivateHosts,
    logger,
    metrics,
  };
  // a run's callbacks are sent by the worker that ends it; only their retries go to the callback queue
  const callbacks = new CallbackSender(callbackQueue, callbackAttempts);
  const checkpoints = new RunCheckpoints(registryConnection, keys, {
    ttlSeconds: settings.queue.runRecordTtlSeconds,
    maxBytes: settings.checkpoints.maxBytes,
    retentionSeconds: settings.checkpoints.retentionHours * 3600,
    onProblem: (runId, message, error) =>
      logger.warn({ pipeline_run_id: runId, err: error }, `run:checkpoint: ${message}`),
  });
  const store = openObjectStore(settings.storage);
  const objects = loggedRunObjects(store, settings.storage, logger);
  // the runs this process holds, and the stops that reach them from any process (docs/cancellation.md)
  const controls = new RunControls();
  const stops = new RedisStopChannel({
    publisher: registryConnection,
    subscriber: connections.open('worker'),
    keys,
    controls,
    records: registry,
  });
  const stopper = new RunStopper({
    store: registry,
    events,
    objects,
    metrics,
    logger,
    now: Date.now,
    docsUrl: settings.errorDocsUrl,
    broadcast: stops,
    callbacks: callbackQueue,
  });
  const common = {
    prefix: keys.bullPrefix,
    lockDuration: settings.worker.lockDurationMs,
    stalledInterval: settings.worker.lockDurationMs,
    maxStalledCount: MAX_STALLED_COUNT,
  };
  configureTemplateLimits({ maxOutputKib: settings.templates.maxOutputKib });
  // every run and child in flight may wait on a render at once, one per batch branch: their renders queue, never fail
  // as busy
  const templates = new PooledTemplateRenderer({
    ...settings.templates,
    queueMax:
      (settings.worker.concurrency + settings.fanOut.workerConcurrency) *
      Math.max(settings.fanOut.batchMaxParallel, DEFAULT_BATCH_CONCURRENCY),
  });
  const children = new ChildQueue({
    connection: connections.open('worker'),
    eventsConnection: connections.open('worker'),
    keys,
    seals,
  });
  // where a child reads its run's payload
  const runs = new Queue(RUN_QUEUE, { connection: connections.open('worker'), prefix: keys.bullPrefix });
  runs.on('error', (error) => swallowedErrors.report('worker-pool:run-reader', error));
  const extractor = createDocumentExtractor(settings.documents);
  // the retakes of runs whose worker died, RUN_QUARANTINE_CONCURRENCY at a time (docs/run-failures.md)
  const quarantines = new QuarantinePool(settings.quarantine);
  const ids = randomIdSource();
  const runWorker = new Worker(
    RUN_QUEUE,
    createRunProcessor({
      registry,
      events,
      callbacks,
      seals,
      inference: deps.inference,
      extractor,
      templates,
      ids,
      now: Date.now,
      logger,
      metrics,
      docsUrl: settings.errorDocsUrl,
      objects,
      checkpoints,
      controls,
      stopper,
      runQuarantined: (payload, runJobId, observer, signal) =>
        quarantines.run({ settings, payload, ...(settings.fanOut.enabled ? { runJobId } : {}) }, observer, signal),
      batchConcurrency: settings.fanOut.batchMaxParallel,
      maxPipes: settings.runMaxPipes,
      ...(settings.fanOut.enabled ? { fanOut: (run) => children.fanOutFor(run) } : {}),
    }),
    { ...common, connection: connections.open('worker'), concurrency: settings.worker.concurrency },
  );
  const childWorker = new Worker(
    CHILD_QUEUE,
    createChildProcessor({
      runs,
      seals,
      objects,
      inference: deps.inference,
      extractor,
      templates,
      ids,
      now: Date.now,
      batchConcurrency: settings.fanOut.batchMaxParallel,
      checkpoints,
      logger,
      metrics,
      docsUrl: settings.errorDocsUrl,
      controls,
    }),
    { ...common, connection: connections.open('worker'), concurrency: settings.fanOut.workerConcurrency },
  );
  const callbackWorker = new Worker(CALLBACK_QUEUE, createCallbackProcessor({ ...callbackAttempts, seals }), {
    ...common,
    connection: connections.open('worker'),
    concurrency: settings.worker.concurrency,
  });
  for (const worker of [runWorker, callbackWorker, childWorker]) {
    metrics.workerConcurrency.set({ queue: worker.name }, worker.concurrency);
    worker.on('error', (error) => logger.warn({ err: error }, 'worker:error'));
    worker.on('stalled', (jobId) => {
      metrics.jobsStalled.inc({ queue: worker.name });
      logger.warn(
        { job_id: jobId },
        'job:stalled (its worker died or hung); it is retaken once, in quarantine for a run',
      );
    });
  }
  failRunsStalledTooOften(runWorker, {
    registry,
    events,
    callbacks,
    metrics,
    now: Date.now,
    logger,
    docsUrl: settings.errorDocsUrl,
    objects,
    checkpoints,
    seals,
  });
  const liveness = new WorkerLiveness(
    [
      { worker: runWorker, queue: runs, concurrency: settings.worker.concurrency },
      { worker: childWorker, queue: children.queue, concurrency: settings.fanOut.workerConcurrency },
      { worker: callbackWorker, queue: callbackQueue.queue, concurrency: settings.worker.concurrency },
    ],
    settings.worker.livenessStallSeconds * 1000,
    Date.now,
  );
  return {
    runWorker,
    callbackWorker,
    childWorker,
    liveness: () => liveness.check(),
    async close() {
      const redisUp = connections.allReady();
      const drained = Promise.all([
        runWorker.close(!redisUp),
        callbackWorker.close(!redisUp),
        childWorker.close(!redisUp),
      ]);
      if (!redisUp)
        logger.warn('worker:Redis is unreachable; in-flight jobs are not awaited (stalled-job recovery retakes them)');
      else if (!(await settleWithin(drained, settings.worker.shutdownGraceMs)))
        logger.warn('worker:grace period over; in-flight jobs are dropped (stalled-job recovery retakes them)');
      if (redisUp)
        await settleWithin(
          Promise.all([callbackQueue.close(), children.close(), runs.close(), runQueue.close()]),
          CLOSE_ALLOWANCE_MS,
        );
      gate.close();
      await settleWithin(templates.close(), CLOSE_ALLOWANCE_MS);
      quarantines.close();
      connections.disconnectAll();
      await objects.flush();
      store.close();
    },
  };
}
