/**
 * Where the deployment's Redis is and how to reach it (docs/redis.md): `REDIS_URL` (`redis://` or `rediss://`, with an
 * ACL user and password in it), the TLS files of a `rediss://` connection, or the sentinels that name the current
 * master. Every Redis client of the service opens its connection from this one value; a combination that cannot work
 * refuses to boot with a line naming the variable.
 */
import { accessSync, constants } from 'node:fs';

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

/** One sentinel's address. */
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

/** The Redis every client of the deployment connects to. */
export interface RedisTarget {
  /** `REDIS_URL`: its host (unless {@link sentinels} name the master), port, user, password and database. */
  url: string;
  /** Present for a `rediss://` URL. */
  tls?: RedisTls;
  /** Present when `REDIS_SENTINELS` is set: the master is asked of them. */
  sentinels?: RedisSentinels;
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
}

const TLS_FILES = [
  ['REDIS_TLS_CA_FILE', 'caFile'],
  ['REDIS_TLS_CERT_FILE', 'certFile'],
  ['REDIS_TLS_KEY_FILE', 'keyFile'],
] as const;

function sentinelAddresses(list: string, problems: string[]): SentinelAddress[] {
  const nodes: SentinelAddress[] = [];
  for (const entry of list.split(',').map((item) => item.trim())) {
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) {
      problems.push(`REDIS_SENTINELS: '${entry.slice(0, 100)}' is not host:port (a comma-separated list of sentinels)`);
      continue;
    }
    nodes.push({ host: match[1]!.replace(/^\[|\]$/g, ''), port });
  }
  return nodes;
}

/**
 * Check the Redis variables together and make the target.
 * @param variables - `REDIS_URL` and the `REDIS_TLS_*` / `REDIS_SENTINEL*` variables as parsed
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
  if (sentinel.nodes === undefined) {
    if (sentinel.masterName !== undefined)
      problems.push('REDIS_SENTINEL_MASTER: set without REDIS_SENTINELS (the sentinels to ask for that master)');
    if (sentinel.password !== undefined)
      problems.push('REDIS_SENTINEL_PASSWORD: set without REDIS_SENTINELS (the sentinels it opens)');
    return target;
  }
  if (sentinel.masterName === undefined)
    problems.push('REDIS_SENTINELS: set without REDIS_SENTINEL_MASTER (the name of the master the sentinels watch)');
  const nodes = sentinelAddresses(sentinel.nodes, problems);
  target.sentinels = {
    nodes,
    masterName: sentinel.masterName ?? '',
    ...(sentinel.password === undefined ? {} : { password: sentinel.password }),
  };
  return target;
}
