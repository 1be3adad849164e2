/**
 * Redis connections for BullMQ and the run registry (ioredis).
 *
 * Producers (the API) fail fast while Redis is down — one retry per command and a command timeout — so a request gets
 * a 503 problem instead of hanging; commands sent while the connection is being (re)established wait for it. Workers block on Redis and retry forever (`maxRetriesPerRequest: null`, as BullMQ
 * requires), reconnecting with backoff.
 */
import { Redis, type RedisOptions } from 'ioredis';

/** Who uses the connection. */
export type ConnectionRole = 'producer' | 'worker';

const RECONNECT_CAP_MS = 2000;
/** Longest a producer command may take before the request gets a 503, in ms. */
const PRODUCER_COMMAND_TIMEOUT_MS = 3000;

/**
 * Open a connection.
 * @param url - `redis://…` or `rediss://…`
 * @param role - producer (fail fast) or worker (block and retry)
 */
export function openRedis(url: string, role: ConnectionRole): Redis {
  const options: RedisOptions = {
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, RECONNECT_CAP_MS),
    ...(role === 'producer'
      ? { maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS }
      : { maxRetriesPerRequest: null, enableReadyCheck: false }),
  };
  const redis = new Redis(url, options);
  redis.on('error', () => undefined);
  return redis;
}
