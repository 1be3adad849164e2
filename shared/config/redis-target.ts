/**
 * Where the deployment's Redis is and how to reach it (docs/redis.md): `REDIS_URL` (`redis://` or `rediss://`, with an
 * ACL user and password in it), the TLS files of a `rediss://` connection, the sentinels that name the current
 * master, or the nodes of a Redis Cluster. Every Redis client of the service opens its connection from this one value; a combination that cannot work
 * refuses to boot with a line naming the variable.
 */
import { accessSync, constants } from 'node:fs';
import type { Cluster, Redis } from 'ioredis';

/** A connection to the deployment's Redis: one server (plain, TLS, through sentinels) or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/** TLS of a `rediss://` connection: PEM file paths and the server name to verify. */
export interface RedisTls {
  /** Certificate authorities to trust instead of the system's. */
  caFile?: string;
  /** Client certificate, presented when the server asks for one (with {@link keyFile}). */
  certFile?: string;
  /** The client certificate's private key. */
  keyFile?: string;
  /** The name the server's certificate must carry, when it is not the host connected to. */
  servername?: string;
}

/** One Redis address (a sentinel, a cluster node). */
export interface SentinelAddress {
  host: string;
  port: number;
}

/** The sentinels of a Sentinel deployment and the master they watch. */
export interface RedisSentinels {
  nodes: SentinelAddress[];
  masterName: string;
  /** The sentinels' own password (`requirepass` of the sentinels), when they ask for one. */
  password?: string;
}

/** The nodes of a Redis Cluster and how to reach the addresses they announce. */
export interface RedisClusterNodes {
  /** Nodes to ask for the cluster's slots (any of them answers; the others are learnt from it). */
  nodes: SentinelAddress[];
  /**
   * Address a node announces (`host:port`, as `CLUSTER SLOTS` names it) → the address this process reaches it at (a
   * NAT, a port forward); empty when every announced address is reachable as it is.
   */
  natMap: Record<string, SentinelAddress>;
}

/** The Redis every client of the deployment connects to. */
export interface RedisTarget {
  /** `REDIS_URL`: its host (unless {@link sentinels} name the master), port, user, password and database. */
  url: string;
  /** Present for a `rediss://` URL. */
  tls?: RedisTls;
  /** Present when `REDIS_SENTINELS` is set: the master is asked of them. */
  sentinels?: RedisSentinels;
  /** Present when `REDIS_CLUSTER_NODES` is set: the deployment's Redis is a Redis Cluster. */
  cluster?: RedisClusterNodes;
}

/** The raw queue variables this module reads. */
interface RedisVariables {
  redisUrl: string;
  tls: {
    caFile?: string | undefined;
    certFile?: string | undefined;
    keyFile?: string | undefined;
    servername?: string | undefined;
  };
  sentinel: { nodes?: string | undefined; masterName?: string | undefined; password?: string | undefined };
  cluster: { nodes?: string | undefined; natMap?: string | undefined };
  /** `QUEUE_PREFIX`: on a cluster, it must be a hash tag. */
  prefix: string;
}

const TLS_FILES = [
  ['REDIS_TLS_CA_FILE', 'caFile'],
  ['REDIS_TLS_CERT_FILE', 'certFile'],
  ['REDIS_TLS_KEY_FILE', 'keyFile'],
] as const;

/** `host:port`, or `[v6]:port`, as an address; undefined when it is not one. */
function address(entry: string): SentinelAddress | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535) return undefined;
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

function addresses(variable: string, what: string, list: string, problems: string[]): SentinelAddress[] {
  const nodes: SentinelAddress[] = [];
  for (const entry of list.split(',').map((item) => item.trim())) {
    const node = address(entry);
    if (node) nodes.push(node);
    else problems.push(`${variable}: '${entry.slice(0, 100)}' is not host:port (a comma-separated list of ${what})`);
  }
  return nodes;
}

/** `announced=reachable,…`, each side `host:port`. */
function natMap(list: string, problems: string[]): Record<string, SentinelAddress> {
  const map: Record<string, SentinelAddress> = {};
  for (const entry of list.split(',').map((item) => item.trim())) {
    const [announced = '', reachable = '', ...rest] = entry.split('=').map((side) => side.trim());
    const from = address(announced);
    const to = address(reachable);
    if (!from || !to || rest.length > 0) {
      problems.push(
        `REDIS_CLUSTER_NAT_MAP: '${entry.slice(0, 100)}' is not announced=reachable (each host:port, comma-separated)`,
      );
      continue;
    }
    map[`${from.host}:${from.port}`] = to;
  }
  return map;
}

/** The cluster's nodes, and the problems of a cluster with the other variables. */
function clusterNodes(variables: RedisVariables, problems: string[]): RedisClusterNodes | undefined {
  const { cluster, sentinel, prefix, redisUrl } = variables;
  if (cluster.nodes === undefined) {
    if (cluster.natMap !== undefined)
      problems.push('REDIS_CLUSTER_NAT_MAP: set without REDIS_CLUSTER_NODES (the cluster whose addresses it maps)');
    return undefined;
  }
  if (sentinel.nodes !== undefined)
    problems.push('REDIS_CLUSTER_NODES: set with REDIS_SENTINELS (a deployment uses a cluster or sentinels, not both)');
  if (!prefix.startsWith('{'))
    problems.push(
      `REDIS_CLUSTER_NODES: set, but QUEUE_PREFIX '${prefix}' is no hash tag; use braces ({${prefix}}) so each script's keys share a slot`,
    );
  const database = new URL(redisUrl).pathname.slice(1);
  if (database !== '' && database !== '0')
    problems.push(
      `REDIS_URL: database ${database.slice(0, 20)} with REDIS_CLUSTER_NODES (a cluster has database 0 only)`,
    );
  return {
    nodes: addresses('REDIS_CLUSTER_NODES', 'cluster nodes', cluster.nodes, problems),
    natMap: cluster.natMap === undefined ? {} : natMap(cluster.natMap, problems),
  };
}

/**
 * Check the Redis variables together and make the target.
 * @param variables - `REDIS_URL`, the `REDIS_TLS_*` / `REDIS_SENTINEL*` / `REDIS_CLUSTER_*` variables and
 * `QUEUE_PREFIX` as parsed
 * @param problems - where each problem is added, starting with its variable
 * @returns the target (meaningless when a problem was added)
 */
export function redisTarget(variables: RedisVariables, problems: string[]): RedisTarget {
  const { redisUrl, tls, sentinel } = variables;
  const secure = redisUrl.startsWith('rediss://');
  const target: RedisTarget = { url: redisUrl };
  const tlsSet: string[] = TLS_FILES.filter(([, key]) => tls[key] !== undefined).map(([name]) => name);
  if (tls.servername !== undefined) tlsSet.push('REDIS_TLS_SERVERNAME');
  if (!secure && tlsSet.length > 0)
    problems.push(`${tlsSet[0]}: set, but REDIS_URL is redis:// (plain); use rediss:// to connect with TLS`);
  if ((tls.certFile === undefined) !== (tls.keyFile === undefined))
    problems.push(
      `${tls.certFile === undefined ? 'REDIS_TLS_CERT_FILE' : 'REDIS_TLS_KEY_FILE'}: required too (a client certificate needs both REDIS_TLS_CERT_FILE and REDIS_TLS_KEY_FILE)`,
    );
  for (const [name, key] of TLS_FILES) {
    const file = tls[key];
    if (file === undefined) continue;
    try {
      accessSync(file, constants.R_OK);
    } catch {
      problems.push(`${name}: cannot read ${file}`);
    }
  }
  if (secure)
    target.tls = Object.fromEntries(Object.entries(tls).filter(([, value]) => value !== undefined)) as RedisTls;
  const cluster = clusterNodes(variables, problems);
  if (cluster) target.cluster = cluster;
  if (sentinel.nodes === undefined) {
    if (sentinel.masterName !== undefined)
      problems.push('REDIS_SENTINEL_MASTER: set without REDIS_SENTINELS (the sentinels to ask for that master)');
    if (sentinel.password !== undefined)
      problems.push('REDIS_SENTINEL_PASSWORD: set without REDIS_SENTINELS (the sentinels it opens)');
    return target;
  }
  if (sentinel.masterName === undefined)
    problems.push('REDIS_SENTINELS: set without REDIS_SENTINEL_MASTER (the name of the master the sentinels watch)');
  const nodes = addresses('REDIS_SENTINELS', 'sentinels', sentinel.nodes, problems);
  target.sentinels = {
    nodes,
    masterName: sentinel.masterName ?? '',
    ...(sentinel.password === undefined ? {} : { password: sentinel.password }),
  };
  return target;
}
