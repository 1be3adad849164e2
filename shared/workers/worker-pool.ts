/**
 * The worker pool of one process: a run worker and a callback worker on BullMQ, with stalled-job recovery (a job whose
 * worker died is retaken once its lock expires) and a graceful `close()` that stops intake and lets in-flight runs
 * finish within a grace period before releasing them.
 */
import { Worker } from 'bullmq';
import type { Settings } from '../config/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import { CALLBACK_QUEUE, CallbackQueue, QueueKeys, RUN_QUEUE, RunRegistry, openRedis } from '../queue/index.js';
import { createDocumentExtractor } from '../inference/index.js';
import { randomIdSource, type InferencePort } from '../runtime/index.js';
import { PooledTemplateRenderer } from '../compute/index.js';
import { configureTemplateLimits } from '../templating/index.js';
import { createCallbackProcessor } from './callback-processor.js';
import { createRunProcessor } from './run-processor.js';

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
  /**
   * Stop taking jobs; wait up to the grace period for in-flight jobs, then release the rest (they are retaken by
   * another worker); close Redis and the template render threads.
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
  const registryConnection = openRedis(settings.queue.redisUrl, 'worker');
  const producerConnection = openRedis(settings.queue.redisUrl, 'worker');
  const registry = new RunRegistry(registryConnection, keys, settings.queue.runRecordTtlSeconds);
  const callbacks = new CallbackQueue({ connection: producerConnection, keys, maxAttempts: settings.callbacks.maxAttempts, backoffMs: settings.callbacks.backoffMs });
  const common = { prefix: keys.bullPrefix, lockDuration: settings.worker.lockDurationMs, stalledInterval: settings.worker.lockDurationMs, maxStalledCount: 3 };
  const runConnection = openRedis(settings.queue.redisUrl, 'worker');
  const callbackConnection = openRedis(settings.queue.redisUrl, 'worker');
  configureTemplateLimits({ maxOutputKib: settings.templates.maxOutputKib });
  const templates = new PooledTemplateRenderer(settings.templates);
  const runWorker = new Worker(
    RUN_QUEUE,
    createRunProcessor({
      registry,
      callbacks,
      inference: deps.inference,
      extractor: createDocumentExtractor(settings.documents),
      templates,
      ids: randomIdSource(),
      now: Date.now,
      logger,
      metrics,
      docsUrl: settings.errorDocsUrl,
    }),
    { ...common, connection: runConnection, concurrency: settings.worker.concurrency },
  );
  const callbackWorker = new Worker(
    CALLBACK_QUEUE,
    createCallbackProcessor({
      readSecret: deps.readSecret,
      now: Date.now,
      timeoutMs: settings.callbacks.timeoutMs,
      allowPrivateHosts: settings.callbacks.allowPrivateHosts,
      logger,
      metrics,
    }),
    { ...common, connection: callbackConnection, concurrency: settings.worker.concurrency },
  );
  for (const worker of [runWorker, callbackWorker]) {
    worker.on('error', (error) => logger.warn({ err: error }, 'worker:error'));
    worker.on('stalled', (jobId) => logger.warn({ job_id: jobId }, 'job:stalled (its worker died or hung); it is retaken'));
  }
  return {
    runWorker,
    callbackWorker,
    async close() {
      const grace = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), settings.worker.shutdownGraceMs).unref());
      const drained = Promise.all([runWorker.close(), callbackWorker.close()]).then(() => 'drained' as const);
      if ((await Promise.race([drained, grace])) === 'timeout') {
        logger.warn('worker:grace period over; releasing in-flight jobs to other workers');
        await Promise.all([runWorker.close(true), callbackWorker.close(true)]);
      }
      await Promise.all([callbacks.close(), templates.close()]);
      for (const connection of [registryConnection, producerConnection, runConnection, callbackConnection]) connection.disconnect();
    },
  };
}
