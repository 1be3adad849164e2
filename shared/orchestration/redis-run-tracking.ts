/**
 * Where a queue deployment records its runs: the run registry and the run event log, both on one Redis connection
 * under the deployment's keys, with the run record's TTL (docs/run-events.md). Built the same way by the API's queue
 * backend and by the workers.
 */

import type { Redis } from 'ioredis';
import type { Settings } from '../config/index.js';
import { RedisRunEventLog } from './events/index.js';
import { openRedis, type QueueKeys } from './queue/index.js';
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
export function redisRunTracking(settings: Settings, connection: Redis, keys: QueueKeys): RedisRunTracking {
  return {
    registry: new RunRegistry(connection, keys, settings.queue.runRecordTtlSeconds),
    events: new RedisRunEventLog({
      redis: connection,
      keys,
      ttlSeconds: settings.queue.runRecordTtlSeconds,
      maxEventsPerRun: settings.runLifecycle.maxEventsPerRun,
      openReader: () => openRedis(settings.queue.redisUrl, 'reader'),
    }),
  };
}
