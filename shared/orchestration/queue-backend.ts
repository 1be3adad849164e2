/**
 * The API's handle on the queue backend: the run and callback queues (producers), the run registry, the run event log,
 * and their Redis connections (producers fail fast; the completion-events listener and each event stream's reader
 * block).
 */

import { Queue } from 'bullmq';
import type { Settings } from '../config/index.js';
import { CLOSE_ALLOWANCE_MS, settleWithin } from '../lifecycle/index.js';
import type { RedisRunEventLog } from './events/index.js';
import { CallbackQueue, CHILD_QUEUE, QueueKeys, RedisConnections, RunQueue } from './queue/index.js';
import { redisRunTracking } from './redis-run-tracking.js';
import type { RunRegistry } from './registry/index.js';

/** Queues, registry and event log of one deployment. */
export interface QueueBackend {
  readonly runQueue: RunQueue;
  readonly callbackQueue: CallbackQueue;
  /** The queue of fanned-out runs' child jobs (docs/fan-out.md), for its metrics and the dashboard; the API adds none. */
  readonly childQueue: Queue;
  readonly registry: RunRegistry;
  /** Runs' events in Redis Streams (docs/run-events.md). */
  readonly events: RedisRunEventLog;
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
 */
export function openQueueBackend(settings: Settings): QueueBackend {
  const keys = new QueueKeys(settings.queue.prefix);
  const connections = new RedisConnections(settings.queue.redisUrl);
  const producer = connections.open('producer');
  const runQueue = new RunQueue({
    connection: producer,
    eventsConnection: () => connections.open('worker'),
    keys,
    maxAttempts: settings.queue.runMaxAttempts,
    keepSeconds: settings.queue.runRecordTtlSeconds,
  });
  const callbackQueue = new CallbackQueue({
    connection: producer,
    keys,
    maxAttempts: settings.callbacks.maxAttempts,
    backoffMs: settings.callbacks.backoffMs,
  });
  const childQueue = new Queue(CHILD_QUEUE, { connection: producer, prefix: keys.bullPrefix });
  childQueue.on('error', () => undefined);
  const registryConnection = connections.open('producer', true);
  const { registry, events } = redisRunTracking(settings, registryConnection, keys);
  return {
    runQueue,
    callbackQueue,
    childQueue,
    registry,
    events,
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
      connections.disconnectAll();
    },
  };
}
