/**
 * Redis Cluster (docs/redis.md#redis-cluster): three masters and three replicas of the test's own; a queue deployment
 * given only the cluster's nodes runs 600 runs with callbacks and fanned-out batches on three run partitions
 * (docs/redis.md#sharded-run-queues), one per master, while the busiest master is killed a third of the way through:
 * every acknowledged run completes with exactly one success callback, and the API answers 202 again within the
 * failover's time plus 5 s. Before the kill, each master serves 22–45 % of the run traffic (`INFO commandstats`).
 * Bull Board lists each partition's queues, and the queue metrics add the partitions' counts.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import request from 'supertest';
import { partitionPrefix } from '../../shared/orchestration/queued.js';
import { startCallbackReceiver } from '../helpers/callback-receiver.js';
import { CONTROLLERS_BUNDLE } from '../helpers/controllers-bundle.js';
import { FailoverStarts } from '../helpers/failover-starts.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { startQueueDeployment } from '../helpers/queue-app.js';
import { type RedisClusterServers, spreadPrefix, startRedisCluster } from '../helpers/redis-servers.js';

const RUNS = 600;
const KILL_AFTER = 200;
const PARTITIONS = 3;
/** Every this many runs, a fanned-out batch instead of a greeting. */
const BATCH_EVERY = 100;
const CLIENTS = 8;
/** Commands of the cluster's own upkeep and of this test, not of runs. */
const UPKEEP = new Set(['info', 'cluster', 'ping', 'command', 'client', 'hello', 'readonly', 'select', 'auth']);

/** Calls of every command a node served so far, upkeep left out. */
async function commandCalls(port: number): Promise<number> {
  const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 });
  try {
    const text = await redis.info('commandstats');
    let calls = 0;
    for (const match of text.matchAll(/^cmdstat_([a-z|_-]+):calls=(\d+)/gm))
      if (!UPKEEP.has(match[1]!.split('|')[0]!)) calls += Number(match[2]);
    return calls;
  } finally {
    redis.disconnect();
  }
}

describe('Redis Cluster: three masters, three run partitions, the busiest master killed during 600 runs', function () {
  this.timeout(180_000);
  let cluster: RedisClusterServers;

  before(async () => {
    cluster = await startRedisCluster(3, 1, 1000);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('should spread the runs over the masters, lose no acknowledged run, call each back once, and answer 202 again within the failover time plus 5 s', async () => {
    const receiver = await startCallbackReceiver();
    const prefix = await spreadPrefix(cluster, PARTITIONS);
    const deployment = startQueueDeployment({
      environment: {
        // a closed port: only the cluster's nodes serve the deployment
        REDIS_URL: 'redis://127.0.0.1:1',
        REDIS_CLUSTER_NODES: cluster.addresses,
        QUEUE_PREFIX: prefix,
        RUN_QUEUE_PARTITIONS: String(PARTITIONS),
        RUN_FAN_OUT: 'true',
        CALLBACK_ALLOW_PRIVATE_HOSTS: 'true',
        // a job whose lock the dead master took with it is retaken after 5 s, not 30
        WORKER_LOCK_DURATION_MS: '5000',
      },
      secret: 'cluster-callback-secret',
    });
    const masters = await cluster.masterPorts();
    expect(masters).to.have.length(3);
    const before = await Promise.all(masters.map(commandCalls));
    const starts = new FailoverStarts(deployment.app);
    let kill: { at: number; port: number; promotedAt?: number; spread?: number[] } | undefined;
    try {
      let next = 0;
      const start = async () => {
        while (next < RUNS) {
          next += 1;
          const body =
            next % BATCH_EVERY === 0
              ? { mthds_contents: [CONTROLLERS_BUNDLE], pipe_code: 'batch_echo', inputs: { words: ['a', 'b', 'c'] } }
              : { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } };
          await starts.start({ ...body, callback_urls: [receiver.url] });
          if (starts.acknowledged.length >= KILL_AFTER && !kill) {
            kill = { at: 0, port: 0 };
            const after = await Promise.all(masters.map(commandCalls));
            const deltas = after.map((calls, index) => calls - before[index]!);
            const total = deltas.reduce((sum, delta) => sum + delta, 0);
            kill.spread = deltas.map((delta) => delta / total);
            // the master serving the most run traffic
            kill.port = masters[deltas.indexOf(Math.max(...deltas))]!;
            const victim = cluster.nodes.find((node) => node.port === kill!.port)!;
            kill.at = Date.now();
            victim.process.kill('SIGKILL');
          }
        }
      };
      const watch = async () => {
        await pollUntil(() => Promise.resolve(kill?.at), Boolean, 120_000, 20);
        await pollUntil(
          () => cluster.masterPorts(),
          (ports) => ports.length === 3 && !ports.includes(kill!.port),
          60_000,
          20,
        );
        kill!.promotedAt = Date.now();
      };
      await Promise.all([...Array.from({ length: CLIENTS }, start), watch()]);
      expect(starts.acknowledged).to.have.length(RUNS);
      await receiver.successes(RUNS);
      const calledBack = receiver.received
        .filter((delivery) => delivery.answered === 200)
        .map((delivery) => JSON.parse(delivery.body) as { pipeline_run_id: string; state: string; error?: unknown });
      // the failed ones whole, so a failure says why
      expect(calledBack.filter((body) => body.state !== 'COMPLETED')).to.deep.equal([]);
      // each acknowledged run called back once and no other run called back, told apart so a failure says which
      const acknowledged = new Set(starts.acknowledged);
      const seen = new Set<string>();
      const duplicated: string[] = [];
      for (const { pipeline_run_id: id } of calledBack) {
        if (seen.has(id)) duplicated.push(id);
        seen.add(id);
      }
      expect(
        {
          unacknowledged: [...seen].filter((id) => !acknowledged.has(id)),
          duplicated,
          missing: starts.acknowledged.filter((id) => !seen.has(id)),
        },
        `${starts.refusals.length} starts answered 503 first`,
      ).to.deep.equal({ unacknowledged: [], duplicated: [], missing: [] });
      const failoverMs = kill!.promotedAt! - kill!.at;
      const backAt = starts.backAfter(kill!.at);
      process.stdout.write(
        `      per-master share of run commands before the kill: ${kill!.spread!.map((share) => `${(share * 100).toFixed(1)} %`).join(', ')}\n` +
          `      failover ${failoverMs} ms; 503 answers: ${starts.refusals.length}; 202 again ${backAt - kill!.at} ms after the kill\n`,
      );
      expect(backAt - kill!.at).to.be.at.most(failoverMs + 5000);
      // a run's partition is drawn by its id: over the 200 runs before the kill, and a fanned-out batch's children on
      // its own partition, a third moves by about 3.5 points (one standard deviation), so 22–45 % is 3.5 of them each
      // way; one master serving them all would be 100 %
      for (const share of kill!.spread!) expect(share).to.be.within(0.22, 0.45);
      // the dashboard lists each partition's queues under its prefix, and the metrics add the partitions' counts
      const dashboard = await request(deployment.app).get('/admin/queues/api/queues?activeQueue=runs').expect(200);
      const listed = (dashboard.body as { queues: { name: string; counts: Record<string, number> }[] }).queues;
      const runQueues = listed.filter((queue) => queue.name.endsWith(':runs'));
      expect(listed).to.have.length(3 * PARTITIONS);
      expect(runQueues.map((queue) => queue.name).sort()).to.deep.equal(
        Array.from({ length: PARTITIONS }, (_, index) => `${partitionPrefix(prefix, index)}:bull:runs`).sort(),
      );
      const completed = runQueues.reduce((sum, queue) => sum + queue.counts['completed']!, 0);
      expect(runQueues.every((queue) => queue.counts['completed']! > 0)).to.equal(true);
      const metrics = await request(deployment.app).get('/metrics').expect(200);
      expect(metrics.text).to.include(`mthds_queue_jobs{queue="runs",state="completed"} ${completed}`);
    } finally {
      await deployment.close();
      await receiver.close();
    }
  });
});
