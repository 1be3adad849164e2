/**
 * Redis connections for BullMQ and the run registry (ioredis).
 *
 * Producers (the API) fail fast while Redis is down — one retry per command and a command timeout — so a request gets
 * a 503 problem instead of hanging; commands sent while the connection is being (re)established wait for it. Workers
 * block on Redis and retry forever (`maxRetriesPerRequest: null`, as BullMQ
 * requires), reconnecting with backoff. A reader (the dedicated connection of one run event stream, docs/run-events.md)
 * blocks without a command timeout but never reconnects: when its connection drops, its stream ends and the client
 * resumes with `Last-Event-ID`.
 *
 * The run registry's and event log's connections auto-pipeline (ioredis `enableAutoPipelining`): the commands of many
 * runs issued in one event-loop tick leave in one write, instead of one socket write per command. BullMQ's own
 * connections do not (its blocking commands must not wait behind a pipeline).
 *
 * A connection's errors (each failed reconnection among them) are counted and logged at the site `redis:<role>`, its
 * outage ending when it is ready again (docs/metrics.md#swallowed-errors).
 */
import { Redis, type RedisOptions } from 'ioredis';
import { swallowedErrors } from '../../observability/index.js';

/** Who uses the connection. */
export type ConnectionRole = 'producer' | 'worker' | 'reader';

const RECONNECT_CAP_MS = 2000;
/** Longest a producer command may take before the request gets a 503, in ms. */
const PRODUCER_COMMAND_TIMEOUT_MS = 3000;

const ROLE_OPTIONS: Record<ConnectionRole, RedisOptions> = {
  producer: {
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, RECONNECT_CAP_MS),
  },
  worker: {
    maxRetriesPerRequest: null,
    enableReadyCheck: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, RECONNECT_CAP_MS),
  },
  reader: { maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: () => null },
};

/**
 * Open a connection.
 * @param url - `redis://…` or `rediss://…`
 * @param role - producer (fail fast), worker (block and retry) or reader (block, end on the first drop)
 * @param pipelined - auto-pipeline the commands of one tick (never for a connection that blocks)
 */
export function openRedis(url: string, role: ConnectionRole, pipelined = false): Redis {
  const options: RedisOptions = { lazyConnect: false, ...ROLE_OPTIONS[role], enableAutoPipelining: pipelined };
  const redis = new Redis(url, options);
  const site = `redis:${role}`;
  redis.on('error', (error) => swallowedErrors.report(site, error));
  redis.on('ready', () => swallowedErrors.recovered(site));
  return redis;
}

/**
 * The Redis connections of one component (the API's queue backend, a worker pool): each opened through here, so the
 * component can tell whether Redis answers on all of them and drop them all at once when it closes.
 */
export class RedisConnections {
  private readonly opened: Redis[] = [];

  /**
   * @param url - `redis://…` or `rediss://…` (`REDIS_URL`)
   */
  constructor(private readonly url: string) {}

  /**
   * Open one more connection.
   * @param role - producer (fail fast) or worker (block and retry)
   * @param pipelined - auto-pipeline the commands of one tick (never for a connection that blocks)
   */
  open(role: ConnectionRole, pipelined = false): Redis {
    const connection = openRedis(this.url, role, pipelined);
    this.opened.push(connection);
    return connection;
  }

  /** Whether every connection opened so far is connected and ready. */
  allReady(): boolean {
    return this.opened.every((connection) => connection.status === 'ready');
  }

  /** Disconnect every connection at once, without waiting for replies (so it never hangs while Redis is down). */
  disconnectAll(): void {
    for (const connection of this.opened) connection.disconnect();
  }
}
