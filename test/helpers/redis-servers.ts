/**
 * Redis servers of a test's own, on 127.0.0.1 ports of their own: a plain or TLS `redis-server` (with ACL users), a
 * replica, sentinels (`redis-server --sentinel`), a Redis Cluster of masters and replicas (`redis-cli --cluster
 * create`), each stopped by the test; and TLS certificates made with `openssl` (a certificate authority, a server
 * certificate for 127.0.0.1, a client certificate).
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { partitionPrefix } from '../../shared/orchestration/queued.js';
import { pollUntil } from './poll.js';
import { freePort, freePorts } from './processes.js';

/** A running `redis-server` (server or sentinel). */
export interface RedisServer {
  readonly port: number;
  readonly process: ChildProcess;
  /** Stop it (SIGKILL: it keeps nothing) and wait for the exit. */
  stop(): Promise<void>;
}

/** Spawn `redis-server` with these arguments; resolved once it accepts connections. */
async function spawnRedis(port: number, dir: string, command: string[]): Promise<RedisServer> {
  const child = spawn('redis-server', command, { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server on port ${port} not ready within 10 s: ${log}`)),
      10_000,
    );
    const ready = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (!/Ready to accept connections|Sentinel ID is/.test(log)) return;
      clearTimeout(timer);
      child.stdout!.off('data', ready).resume();
      resolve();
    };
    child.stdout!.on('data', ready);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`redis-server on port ${port} exited: ${log}`));
    });
  });
  return {
    port,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Start a `redis-server` with extra arguments on a free port, resolved once it accepts connections.
 * @param args - more arguments (`--tls-cert-file`, `--user`, `--replicaof`…)
 * @param options - `tlsOnly`: the free port is the TLS port and the plain port is closed; `clusterBus`: its cluster
 *   bus listens on a second free port (`--cluster-port`), other than its own
 * @throws when it exits or is not ready within 10 s
 */
export async function startRedisServer(
  args: string[],
  options: { tlsOnly?: boolean; clusterBus?: boolean } = {},
): Promise<RedisServer> {
  const [port = 0, busPort] = await freePorts(options.clusterBus ? 2 : 1);
  const dir = mkdtempSync(join(tmpdir(), 'mthds-redis-'));
  const portArgs = options.tlsOnly ? ['--port', '0', '--tls-port', String(port)] : ['--port', String(port)];
  if (busPort !== undefined) portArgs.push('--cluster-port', String(busPort));
  return spawnRedis(port, dir, [
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    ...portArgs,
    ...args,
  ]);
}

/**
 * Start a sentinel watching a master, on a free port (it rewrites a configuration file of its own).
 * @param masterName - the name it watches the master under
 * @param masterPort - the master's port on 127.0.0.1
 * @param quorum - sentinels that must agree the master is down
 * @param downAfterMs - silence after which it thinks the master is down, ms
 * @throws when it exits or is not ready within 10 s
 */
export async function startSentinel(
  masterName: string,
  masterPort: number,
  quorum: number,
  downAfterMs: number,
): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mthds-sentinel-'));
  const file = join(dir, 'sentinel.conf');
  writeFileSync(
    file,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${masterName} 127.0.0.1 ${masterPort} ${quorum}`,
      `sentinel down-after-milliseconds ${masterName} ${downAfterMs}`,
      `sentinel failover-timeout ${masterName} 10000`,
      `sentinel parallel-syncs ${masterName} 1`,
      '',
    ].join('\n'),
  );
  return spawnRedis(port, dir, [file, '--sentinel']);
}

/** A running Redis Cluster of the test's own. */
export interface RedisClusterServers {
  /** Every node, masters first as `redis-cli --cluster create` made them (it pairs each later node with a master). */
  readonly nodes: RedisServer[];
  /** `127.0.0.1:port,…` of every node, as `REDIS_CLUSTER_NODES` takes it. */
  readonly addresses: string;
  /** The ports of the nodes that are masters now. */
  masterPorts(): Promise<number[]>;
  /** Stop every node. */
  stop(): Promise<void>;
}

/**
 * The ports of the masters a `CLUSTER NODES` answer lists, those flagged failing (`fail`, `fail?`) left out.
 * @param text - the answer, one node per line
 */
function mastersIn(text: string): number[] {
  return text
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([, , flags = '']) => {
      const set = flags.split(',');
      return set.includes('master') && !set.includes('fail') && !set.includes('fail?');
    })
    .map(([, address = '']) => Number(/:(\d+)@/.exec(address)?.[1]));
}

/**
 * Start a Redis Cluster on free ports: `masters × (1 + replicasEach)` cluster-enabled `redis-server` processes, each
 * with its bus on a free port of its own, joined by `redis-cli --cluster create`; resolved once every node sees the
 * cluster `ok` with every node, `masters` masters among them, and each replica holds its master's data.
 * @param masters - masters (the 16384 slots spread evenly over them)
 * @param replicasEach - replicas of each master
 * @param nodeTimeoutMs - `cluster-node-timeout`: silence after which a master is failed over, ms
 * @throws when a node does not start or the cluster is not ok within 30 s
 */
export async function startRedisCluster(
  masters: number,
  replicasEach: number,
  nodeTimeoutMs: number,
): Promise<RedisClusterServers> {
  const nodes: RedisServer[] = [];
  const stop = async () => {
    for (const node of nodes) await node.stop();
  };
  try {
    for (let index = 0; index < masters * (1 + replicasEach); index += 1)
      nodes.push(
        await startRedisServer(
          [
            '--cluster-enabled',
            'yes',
            '--cluster-node-timeout',
            String(nodeTimeoutMs),
            // a replica syncs at once, and may take over however long its link was down
            '--repl-diskless-sync-delay',
            '0',
            '--cluster-replica-validity-factor',
            '0',
          ],
          { clusterBus: true },
        ),
      );
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    await promisify(execFile)('redis-cli', [
      '--cluster',
      'create',
      ...addresses,
      '--cluster-replicas',
      String(replicasEach),
      '--cluster-yes',
    ]);
    for (const node of nodes) {
      const client = new Redis({ host: '127.0.0.1', port: node.port, maxRetriesPerRequest: 1 });
      try {
        await pollUntil(
          async () => `${await client.cluster('INFO')}`,
          (info) => info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${nodes.length}`),
          30_000,
          50,
        );
        // every node has learnt every role (a replica is announced as a master until its CLUSTER REPLICATE spreads)
        await pollUntil(
          async () => `${await client.cluster('NODES')}`,
          (text) => mastersIn(text).length === masters,
          30_000,
          50,
        );
        // a replica can take over only once it holds its master's data
        await pollUntil(
          () => client.info('replication'),
          (info) => info.includes('role:master') || info.includes('master_link_status:up'),
          30_000,
          50,
        );
      } finally {
        client.disconnect();
      }
    }
    return {
      nodes,
      addresses: addresses.join(','),
      async masterPorts() {
        const alive = nodes.find((node) => !node.process.killed && node.process.exitCode === null)!;
        const client = new Redis({ host: '127.0.0.1', port: alive.port, maxRetriesPerRequest: 1 });
        try {
          return mastersIn(`${await client.cluster('NODES')}`);
        } finally {
          client.disconnect();
        }
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A hash-tagged prefix whose partitions' slots are served by as many masters as there are partitions (the tags of
 * another prefix may share a master: docs/redis.md#sharded-run-queues), asked of the cluster's first node.
 * @param cluster - a running cluster with at least `partitions` masters
 * @param partitions - `RUN_QUEUE_PARTITIONS`
 */
export async function spreadPrefix(cluster: RedisClusterServers, partitions: number): Promise<string> {
  const redis = new Redis({ host: '127.0.0.1', port: cluster.nodes[0]!.port, maxRetriesPerRequest: 1 });
  try {
    const ranges = await redis.cluster('SLOTS');
    const masterOf = (slot: number) => ranges.find(([from, to]) => slot >= from && slot <= to)![2]![1];
    for (;;) {
      const prefix = `{cluster-${randomBytes(4).toString('hex')}}`;
      const slots = await Promise.all(
        Array.from({ length: partitions }, (_, index) =>
          redis.cluster('KEYSLOT', `${partitionPrefix(prefix, index)}:x`),
        ),
      );
      if (new Set(slots.map((slot) => masterOf(Number(slot)))).size === partitions) return prefix;
    }
  } finally {
    redis.disconnect();
  }
}

/** PEM files of a test certificate authority and the certificates it signed. */
export interface TestCertificates {
  readonly dir: string;
  readonly caFile: string;
  /** The server's, for 127.0.0.1 (and the name `redis.test`). */
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
  /** Remove the files. */
  remove(): void;
}

/**
 * Make a certificate authority, a server certificate for 127.0.0.1 and `redis.test`, and a client certificate, with
 * `openssl` (EC P-256 keys, valid one day).
 */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'mthds-certs-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  const key = (name: string) => openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file(name));
  key('ca.key');
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    file('ca.key'),
    '-days',
    '1',
    '-subj',
    '/CN=mthds test CA',
    '-out',
    file('ca.crt'),
  );
  const sign = (name: string, subject: string, extensions: string) => {
    key(`${name}.key`);
    openssl('req', '-new', '-key', file(`${name}.key`), '-subj', subject, '-out', file(`${name}.csr`));
    writeFileSync(file(`${name}.ext`), extensions);
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      file(`${name}.ext`),
      '-out',
      file(`${name}.crt`),
    );
  };
  sign('server', '/CN=redis.test', 'subjectAltName=IP:127.0.0.1,DNS:redis.test\nextendedKeyUsage=serverAuth\n');
  sign('client', '/CN=mthds runner', 'extendedKeyUsage=clientAuth\n');
  return {
    dir,
    caFile: file('ca.crt'),
    serverCertFile: file('server.crt'),
    serverKeyFile: file('server.key'),
    clientCertFile: file('client.crt'),
    clientKeyFile: file('client.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
