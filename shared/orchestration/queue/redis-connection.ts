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
 *
 * Every connection is opened from the deployment's one {@link RedisTarget} (docs/redis.md): the URL with its ACL user
 * and password, TLS with the configured certificate files for `rediss://`, the master the sentinels name, or the nodes
 * of a Redis Cluster (an ioredis `Cluster`, whose node connections take the role's options; BullMQ accepts it as it is).
 */
import { readFileSync } from 'node:fs';
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import type { RedisClient, RedisTarget } from '../../config/index.js';
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

/** How a role's cluster reconnects: as its node connections would, or (a reader) never. */
const CLUSTER_RETRY: Record<ConnectionRole, ClusterOptions['clusterRetryStrategy']> = {
  producer: (attempt) => Math.min(attempt * 100, RECONNECT_CAP_MS),
  worker: (attempt) => Math.min(attempt * 100, RECONNECT_CAP_MS),
  reader: () => null,
};

/** TLS options of a target: its PEM files read (once per target), its server name. */
const tlsOptions = new WeakMap<RedisTarget, NonNullable<RedisOptions['tls']>>();

function tlsOf(target: RedisTarget): RedisOptions['tls'] {
  const { tls } = target;
  if (!tls) return undefined;
  let options = tlsOptions.get(target);
  if (!options) {
    options = {
      ...(tls.caFile ? { ca: readFileSync(tls.caFile) } : {}),
      ...(tls.certFile ? { cert: readFileSync(tls.certFile) } : {}),
      ...(tls.keyFile ? { key: readFileSync(tls.keyFile) } : {}),
      ...(tls.servername ? { servername: tls.servername } : {}),
    };
    tlsOptions.set(target, options);
  }
  return options;
}

/**
 * The ioredis options of a target, beside the role's: the URL's user, password and database, TLS, and with sentinels
 * the master's name, the sentinels' addresses and password (TLS then applies to the sentinels too).
 * @param target - the deployment's Redis
 */
function targetOptions(target: RedisTarget): RedisOptions {
  const url = new URL(target.url);
  const tls = tlsOf(target);
  const database = Number(url.pathname.slice(1) || '0');
  const credentials: RedisOptions = {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(Number.isInteger(database) ? { db: database } : {}),
  };
  if (!target.sentinels)
    return {
      ...credentials,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port || '6379'),
      ...(tls ? { tls } : {}),
    };
  const { nodes, masterName, password } = target.sentinels;
  return {
    ...credentials,
    sentinels: nodes,
    name: masterName,
    ...(password === undefined ? {} : { sentinelPassword: password }),
    ...(tls ? { tls, enableTLSForSentinelMode: true, sentinelTLS: tls } : {}),
  };
}

/**
 * A cluster client: its nodes and NAT map from the target, each node connection with the URL's user and password,
 * TLS and the role's options; commands sent during a failover wait for the new master (`retryDelayOnFailover`) within
 * the role's bounds.
 */
function openCluster(target: RedisTarget, role: ConnectionRole, pipelined: boolean): Cluster {
  const { nodes, natMap } = target.cluster!;
  const url = new URL(target.url);
  const tls = tlsOf(target);
  const { retryStrategy: _retry, ...roleOptions } = ROLE_OPTIONS[role];
  return new Cluster(nodes, {
    lazyConnect: false,
    enableAutoPipelining: pipelined,
    clusterRetryStrategy: CLUSTER_RETRY[role],
    retryDelayOnFailover: 200,
    ...(Object.keys(natMap).length > 0 ? { natMap } : {}),
    redisOptions: {
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      ...(tls ? { tls } : {}),
      ...roleOptions,
    },
  });
}

/**
 * Open a connection: to the one server of the target, or to its cluster.
 * @param target - the deployment's Redis (`settings.queue.redis`)
 * @param role - producer (fail fast), worker (block and retry) or reader (block, end on the first drop)
 * @param pipelined - auto-pipeline the commands of one tick (never for a connection that blocks)
 * @throws whatever reading a TLS file throws (checked readable at boot)
 */
export function openRedis(target: RedisTarget, role: ConnectionRole, pipelined = false): RedisClient {
  const redis: RedisClient = target.cluster
    ? openCluster(target, role, pipelined)
    : new Redis({
        lazyConnect: false,
        ...targetOptions(target),
        ...ROLE_OPTIONS[role],
        enableAutoPipelining: pipelined,
      });
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
  private readonly opened: RedisClient[] = [];

  /**
   * @param target - the deployment's Redis (`settings.queue.redis`)
   */
  constructor(private readonly target: RedisTarget) {}

  /**
   * Open one more connection.
   * @param role - producer (fail fast) or worker (block and retry)
   * @param pipelined - auto-pipeline the commands of one tick (never for a connection that blocks)
   */
  open(role: ConnectionRole, pipelined = false): RedisClient {
    const connection = openRedis(this.target, role, pipelined);
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
