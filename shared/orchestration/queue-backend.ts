/**
 * The API's handle on the queue backend: the run and callback queues (producers), the run registry, the run event log,
 * the stops of runs (docs/cancellation.md), and their Redis connections (producers fail fast; the completion-events
 * listener and each event stream's reader block; the stops' subscriber reconnects). It also builds the `bullmq`
 * orchestrator and reports its queues, so the API reaches BullMQ only through this handle (loaded only in queue mode:
 * docs/architecture.md#startup).
 */

import { Queue } from 'bullmq';
import type { Settings } from '../config/index.js';
import { CLOSE_ALLOWANCE_MS, settleWithin } from '../lifecycle/index.js';
import { type Metrics, swallowedErrors } from '../observability/index.js';
import { type BullmqOrchestratorDeps, bullmqOrchestrator } from './bullmq-orchestrator.js';
import { type CatalogChanges, redisCatalogChanges } from './catalog/index.js';
import { RunControls, type StopBroadcast, type StoppableJobs } from './control/index.js';
import { RedisStopChannel } from './control/redis-stop-channel.js';
import type { RunEventLog } from './events/index.js';
import type { Orchestrator } from './orchestrator.js';
import { claimEmbeddedDatabase } from './queue/embedded-database-claim.js';
import {
  CALLBACK_QUEUE,
  CallbackQueue,
  CHILD_QUEUE,
  JobSeals,
  QueueKeys,
  RedisConnections,
  RUN_QUEUE,
  RunQueue,
  RunQueueJobs,
} from './queue/index.js';
import { dispatchGate, redisRunTracking } from './redis-run-tracking.js';
import type { HistoryOutbox, RunStore } from './registry/index.js';
import { type QueuedRetrierDeps, queuedRunRetrier } from './retry/queued-retrier.js';
import type { RunRetrier } from './retry/run-retrier.js';

/** Queues, registry and event log of one deployment. */
export interface QueueBackend {
  readonly runQueue: RunQueue;
  readonly callbackQueue: CallbackQueue;
  /**
   * The queue of fanned-out runs' child jobs (docs/fan-out.md), for its metrics and the dashboard; the API adds none.
   */
  readonly childQueue: Queue;
  readonly registry: RunStore & HistoryOutbox;
  /** Runs' events in Redis Streams (docs/run-events.md). */
  readonly events: RunEventLog;
  /** The run, callback and child queues, for the queue dashboard (`/admin/queues`). */
  readonly queues: readonly Queue[];
  /** The runs this API process holds (its direct runs), which the deployment's stops reach (docs/cancellation.md). */
  readonly controls: RunControls;
  /** Announces a stop to every process of the deployment, and hears the stops of this process's runs. */
  readonly stops: StopBroadcast;
  /** The run queue's jobs, as a stop reads and removes them. */
  readonly runJobs: StoppableJobs;
  /** Announces and hears the changes of owners' methods catalogs across the deployment (docs/mcp.md). */
  readonly catalogChanges: CatalogChanges;
  /**
   * The `bullmq` orchestrator of this backend: runs enqueued on its run queue through its dispatch gate, recorded in its
   * registry.
   * @param deps - everything {@link bullmqOrchestrator} needs but the queue, the registry and the gate
   */
  orchestrator(deps: Omit<BullmqOrchestratorDeps, 'queue' | 'registry' | 'gate'>): Orchestrator;
  /**
   * The retrier of this backend (`POST /v1/runs/{id}/retry`, docs/checkpoints.md#retrying-a-run): retries enqueued on
   * its run queue, recorded in its registry.
   * @param deps - everything {@link queuedRunRetrier} needs but the queue, the registry and the gate
   */
  retrier(deps: Omit<QueuedRetrierDeps, 'queue' | 'registry' | 'gate'>): RunRetrier;
  /**
   * Report the three queues' job counts in `metrics` (`mthds_queue_jobs`), with the runs waiting at the dispatch gate as
   * the run queue's `gated` state.
   * @param metrics - the process's metrics (or what gathers the gauges of several backends)
   */
  watch(metrics: Pick<Metrics, 'watchQueue' | 'watchQueueAge'>): void;
  /**
   * Take the deployment's lease on the embedded control-plane database (docs/control-plane.md#where-it-lives).
   * @returns a function that gives it up
   * @throws SettingsError (one line) when another API process of the deployment holds it
   */
  claimEmbeddedDatabase(): Promise<() => Promise<void>>;
  /**
   * Whether Redis answers: every connection is up and a `PING` is answered within `timeoutMs` (`GET /ready`).
   * @param timeoutMs - how long to wait for the answer
   */
  reachable(timeoutMs: number): Promise<boolean>;
  /**
   * Close the queues (when Redis answers, within {@link CLOSE_ALLOWANCE_MS}) and disconnect without waiting for
   * replies — the event streams' readers included — so it never hangs while Redis is down.
   */
  close(): Promise<void>;
}

/**
 * Open the backend (connections are made in the background; a Redis outage surfaces per request as a 503).
 * @param settings - Redis URL, key prefix, TTLs and attempts
 * @param controls - the runs this process holds, when several backends share them (the partitions of one process)
 */
export function openQueueBackend(settings: Settings, controls = new RunControls()): QueueBackend {
  const keys = new QueueKeys(settings.queue.prefix);
  const connections = new RedisConnections(settings.queue.redis);
  const producer = connections.open('producer');
  const seals = new JobSeals(producer, keys);
  const runQueue = new RunQueue({
    connection: producer,
    eventsConnection: () => connections.open('worker'),
    keys,
    seals,
    maxAttempts: settings.queue.runMaxAttempts,
    keepSeconds: settings.queue.runRecordTtlSeconds,
  });
  const callbackQueue = new CallbackQueue({
    connection: producer,
    keys,
    seals,
    maxAttempts: settings.callbacks.maxAttempts,
    backoffMs: settings.callbacks.backoffMs,
  });
  const childQueue = new Queue(CHILD_QUEUE, { connection: producer, prefix: keys.bullPrefix });
  childQueue.on('error', (error) => swallowedErrors.report('queue-backend:child-queue', error));
  const registryConnection = connections.open('producer', true);
  const { registry, events } = redisRunTracking(settings, registryConnection, keys);
  const gate = dispatchGate(registry, registryConnection, keys, runQueue);
  const stops = new RedisStopChannel({
    publisher: producer,
    subscriber: connections.open('worker'),
    keys,
    controls,
    records: registry,
  });
  return {
    runQueue,
    callbackQueue,
    childQueue,
    registry,
    events,
    queues: [runQueue.queue, callbackQueue.queue, childQueue],
    controls,
    stops,
    runJobs: new RunQueueJobs(runQueue.queue, producer, seals),
    catalogChanges: redisCatalogChanges({
      publisher: producer,
      subscriber: connections.open('worker'),
      channel: keys.catalogChanges,
    }),
    orchestrator: (deps) => bullmqOrchestrator({ ...deps, queue: runQueue, registry, gate }),
    retrier: (deps) => queuedRunRetrier({ ...deps, queue: runQueue, registry, gate }),
    watch(metrics) {
      metrics.watchQueue(RUN_QUEUE, async () => ({ ...(await runQueue.counts()), gated: await gate.waiting() }));
      metrics.watchQueueAge(RUN_QUEUE, () => runQueue.headAddedAt());
      metrics.watchQueue(CALLBACK_QUEUE, () => callbackQueue.counts());
      metrics.watchQueue(CHILD_QUEUE, () =>
        childQueue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'),
      );
    },
    claimEmbeddedDatabase: () => claimEmbeddedDatabase(producer, keys.embeddedDatabaseHolder),
    async reachable(timeoutMs) {
      if (!connections.allReady()) return false;
      let answered = false;
      await settleWithin(
        producer.ping().then(() => {
          answered = true;
        }),
        timeoutMs,
      );
      return answered;
    },
    async close() {
      if (connections.allReady())
        await settleWithin(
          Promise.allSettled([runQueue.close(), callbackQueue.close(), childQueue.close()]),
          CLOSE_ALLOWANCE_MS,
        );
      events.close();
      gate.close();
      connections.disconnectAll();
    },
  };
}
