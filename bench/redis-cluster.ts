/**
 * Runs on a Redis Cluster of three masters (docs/redis.md#sharded-run-queues), private `redis-server` processes on
 * ports of the benchmark's own: the runs per second one process (API and worker) completes with one run partition and
 * with three (one per master), the Redis commands each run costs, and each master's command rate and CPU time
 * (`INFO commandstats`, `INFO cpu`), from which docs/capacity.md sizes a deployment. Writes `bench/redis-cluster.md`.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import request from 'supertest';
import { GREETING_BUNDLE } from '../test/helpers/greeting-bundle.js';
import { startQueueDeployment } from '../test/helpers/queue-app.js';
import { type RedisClusterServers, spreadPrefix, startRedisCluster } from '../test/helpers/redis-servers.js';

const RUNS = 1500;
const WARM_UP = 100;
const PARALLEL = 32;
/** Unfinished runs read per poll, oldest first. */
const POLLED = 64;
/** Commands of the cluster's own upkeep and of the benchmark's reads of statistics, not of runs. */
const UPKEEP = new Set(['info', 'cluster', 'ping', 'command', 'client', 'hello', 'readonly', 'config']);

/** A master's counters: commands of runs so far, and CPU time used, in ms. */
interface MasterCounters {
  calls: number;
  cpuMs: number;
}

async function countersOf(port: number): Promise<MasterCounters> {
  const redis = new Redis({ host: '127.0.0.1', port });
  try {
    let calls = 0;
    for (const match of (await redis.info('commandstats')).matchAll(/^cmdstat_([a-z|_-]+):calls=(\d+)/gm))
      if (!UPKEEP.has(match[1]!.split('|')[0]!)) calls += Number(match[2]);
    const cpu = await redis.info('cpu');
    const seconds = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(cpu)?.[1] ?? 0);
    return { calls, cpuMs: (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000 };
  } finally {
    redis.disconnect();
  }
}

/** One measured phase. */
interface Phase {
  partitions: number;
  runsPerSecond: number;
  commandsPerRun: number;
  /** Per master: commands per second and CPU share of one core during the phase. */
  masters: { commandsPerSecond: number; cpuShare: number }[];
  /** Commands a master runs per second of its CPU time, over the masters. */
  commandsPerCpuSecond: number;
}

async function phase(cluster: RedisClusterServers, partitions: number): Promise<Phase> {
  const masters = await cluster.masterPorts();
  const deployment = startQueueDeployment({
    environment: {
      REDIS_URL: 'redis://127.0.0.1:1',
      REDIS_CLUSTER_NODES: cluster.addresses,
      QUEUE_PREFIX: await spreadPrefix(cluster, partitions),
      RUN_QUEUE_PARTITIONS: String(partitions),
    },
  });
  let reads = 0;
  const runAll = async (count: number) => {
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < count) {
          next += 1;
          const answer = await request(deployment.app)
            .post('/v1/start')
            .send({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } })
            .expect(202);
          ids.push(answer.body.pipeline_run_id as string);
        }
      }),
    );
    const unfinished = [...ids];
    while (unfinished.length > 0) {
      const batch = unfinished.slice(0, POLLED);
      reads += batch.length;
      const records = await Promise.all(batch.map((id) => deployment.backend.registry.get(id)));
      const done = new Set(batch.filter((_, index) => records[index]?.state === 'COMPLETED'));
      if (done.size === 0) await delay(20);
      for (let index = unfinished.length - 1; index >= 0; index -= 1)
        if (done.has(unfinished[index]!)) unfinished.splice(index, 1);
    }
  };
  try {
    await runAll(WARM_UP);
    const before = await Promise.all(masters.map(countersOf));
    reads = 0;
    const startedAt = performance.now();
    await runAll(RUNS);
    const seconds = (performance.now() - startedAt) / 1000;
    const after = await Promise.all(masters.map(countersOf));
    const calls = after.map((counters, index) => counters.calls - before[index]!.calls);
    const cpuMs = after.map((counters, index) => counters.cpuMs - before[index]!.cpuMs);
    const totalCalls = calls.reduce((sum, n) => sum + n, 0);
    return {
      partitions,
      runsPerSecond: RUNS / seconds,
      commandsPerRun: (totalCalls - reads) / RUNS,
      masters: calls.map((n, index) => ({ commandsPerSecond: n / seconds, cpuShare: cpuMs[index]! / 1000 / seconds })),
      commandsPerCpuSecond: totalCalls / (cpuMs.reduce((sum, n) => sum + n, 0) / 1000),
    };
  } finally {
    await deployment.close();
  }
}

const cluster = await startRedisCluster(3, 0, 5000);
try {
  const phases: Phase[] = [];
  for (const partitions of [1, 3]) {
    const measured = await phase(cluster, partitions);
    phases.push(measured);
    process.stdout.write(`${JSON.stringify(measured)}\n`);
  }
  const rows = phases.map(
    (measured) =>
      `| ${measured.partitions} | ${measured.runsPerSecond.toFixed(0)} | ${measured.commandsPerRun.toFixed(1)} | ${measured.masters
        .map((master) => `${master.commandsPerSecond.toFixed(0)} (${(master.cpuShare * 100).toFixed(0)} %)`)
        .join(' / ')} | ${measured.commandsPerCpuSecond.toFixed(0)} |`,
  );
  writeFileSync(
    new URL('redis-cluster.md', import.meta.url),
    [
      '# Runs on a three-master Redis Cluster, with one and three run partitions',
      '',
      `Written by \`tsx bench/redis-cluster.ts\` (part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}, load average ${loadavg()[0]!.toFixed(2)} at the end. Three cluster-enabled \`redis-server\` masters of the benchmark's own (no replicas, nothing saved) on this machine; one process runs the API and a worker, with mock inference answering at once. Each phase starts ${RUNS} runs of the greeting method (${PARALLEL} requests at a time, no callback) after ${WARM_UP} to warm up, and waits until every one is completed, reading the oldest unfinished ones' records. Commands per run are the masters' \`INFO commandstats\` calls over the phase (a script's own commands counted beside its \`evalsha\`; the cluster's upkeep and the benchmark's reads left out), divided by the runs; a master's CPU share is its \`INFO cpu\` time over the phase's time (1 = one core, a master's ceiling); commands per CPU second are all masters' calls over their CPU time. With three partitions, the prefix is chosen so that each lands on its own master.`,
      '',
      '| partitions | runs/s | commands per run | per master: commands/s (CPU share) | commands per master CPU second |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      'On this 2-core machine the runner process, not Redis, is the limit: its one event loop starts, runs and records every run, and the masters share the two cores with it. The figures that carry to a larger deployment are the commands per run and the commands per CPU second of a master; docs/capacity.md sizes a deployment from them.',
      '',
    ].join('\n'),
  );
} finally {
  await cluster.stop();
}
