/**
 * Where a queue deployment records its runs: the run registry and the run event log, both on one Redis connection
 * under the deployment's keys, with the run record's TTL (docs/run-events.md). Built the same way by the API's queue
 * backend and by the workers.
 */

import type { RedisClient, Settings } from '../config/index.js';
import { RedisRunEventLog } from './events/index.js';
import { RunGate } from './fairness/run-gate.js';
import { openRedis, type QueueKeys, type RunQueue } from './queue/index.js';
import { RunRegistry } from './registry/index.js';

/** A deployment's run records and events on Redis. */
export interface RedisRunTracking {
  registry: RunRegistry;
  events: RedisRunEventLog;
}

/**
 * Open the run registry and event log of a deployment.
 * @param settings - the queue (Redis URL, record TTL) and run lifecycle (events kept per run) settings
 * @param connection - the connection both use for their commands
 * @param keys - the deployment's Redis names
 * @returns the registry and the event log (event streams open their own reader connections)
 */
export function redisRunTracking(settings: Settings, connection: RedisClient, keys: QueueKeys): RedisRunTracking {
  return {
    registry: new RunRegistry(
      connection,
      keys,
      settings.queue.runRecordTtlSeconds,
      settings.runLifecycle.maxEventsPerRun,
    ),
    events: new RedisRunEventLog({
      redis: connection,
      keys,
      ttlSeconds: settings.queue.runRecordTtlSeconds,
      maxEventsPerRun: settings.runLifecycle.maxEventsPerRun,
      openReader: () => openRedis(settings.queue.redis, 'reader'),
    }),
  };
}

/**
 * Open the dispatch gate of a deployment (docs/fair-dispatch.md) on the registry's connection: the runs a finish
 * recorded by this registry hands a slot are added to `queue` from this process, and this process takes back the runs
 * a dispatcher that died left taken.
 * @param registry - the registry whose finishes hand slots on
 * @param connection - the registry's connection (the gate's scripts share it)
 * @param keys - the deployment's Redis names
 * @param queue - the run queue producer
 * @returns the gate, reclaiming until it is closed
 */
export function dispatchGate(
  registry: RunRegistry,
  connection: RedisClient,
  keys: QueueKeys,
  queue: RunQueue,
): RunGate {
  const gate = new RunGate({ redis: connection, keys, queue, now: Date.now });
  registry.onHandover = (runs) => {
    gate.dispatch(runs).catch(() => undefined);
  };
  gate.startReclaiming();
  return gate;
}
