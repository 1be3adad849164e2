/**
 * Sentinel (docs/redis.md#sentinel): a master, a replica and three sentinels of the test's own; a queue deployment
 * given only the sentinels and the master's name runs 300 runs while an operator forces a failover
 * (`SENTINEL FAILOVER`) a third of the way through: every acknowledged run completes with exactly one success
 * callback, and the API answers 202 again within the failover's time plus 5 s.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startCallbackReceiver } from '../helpers/callback-receiver.js';
import { FailoverStarts } from '../helpers/failover-starts.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { startQueueDeployment } from '../helpers/queue-app.js';
import { type RedisServer, startRedisServer, startSentinel } from '../helpers/redis-servers.js';

const MASTER = 'mthds';
const RUNS = 300;
const FAILOVER_AFTER = 100;
const CLIENTS = 5;

describe('Redis Sentinel: a forced failover during 300 runs (redis-server processes of its own)', function () {
  this.timeout(180_000);
  const servers: RedisServer[] = [];
  const clients: Redis[] = [];
  let sentinels: RedisServer[];
  let replica: RedisServer;

  const client = (port: number) => {
    const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 });
    clients.push(redis);
    return redis;
  };

  before(async () => {
    const master = await startRedisServer([]);
    servers.push(master);
    replica = await startRedisServer(['--replicaof', '127.0.0.1', String(master.port)]);
    servers.push(replica);
    await pollUntil(
      () => client(replica.port).info('replication'),
      (info) => info.includes('master_link_status:up'),
      20_000,
      50,
    );
    sentinels = [];
    for (let index = 0; index < 3; index += 1) sentinels.push(await startSentinel(MASTER, master.port, 2, 2000));
    servers.push(...sentinels);
    // a sentinel can promote the replica only once it has learnt of it from the master
    for (const sentinel of sentinels)
      await pollUntil(
        () => client(sentinel.port).call('SENTINEL', 'REPLICAS', MASTER) as Promise<unknown[]>,
        (replicas) => replicas.length === 1,
        30_000,
        100,
      );
  });

  after(async () => {
    for (const redis of clients) redis.disconnect();
    for (const server of servers) await server.stop();
  });

  it('should lose no acknowledged run, call each back once, and answer 202 again within the failover time plus 5 s', async () => {
    const receiver = await startCallbackReceiver();
    const deployment = startQueueDeployment({
      environment: {
        // a closed port: only the master the sentinels name can serve the deployment
        REDIS_URL: 'redis://127.0.0.1:1',
        REDIS_SENTINELS: sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(','),
        REDIS_SENTINEL_MASTER: MASTER,
        CALLBACK_ALLOW_PRIVATE_HOSTS: 'true',
      },
      secret: 'sentinel-callback-secret',
    });
    const starts = new FailoverStarts(deployment.app);
    let failover: { startedAt: number; promotedAt?: number } | undefined;
    const sentinel = client(sentinels[0]!.port);
    const promoted = async () => {
      const address = (await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER)) as [string, string];
      return Number(address[1]) === replica.port;
    };
    try {
      let next = 0;
      const start = async () => {
        while (next < RUNS) {
          next += 1;
          await starts.start({
            mthds_contents: [GREETING_BUNDLE],
            inputs: { name: 'Ada' },
            callback_urls: [receiver.url],
          });
          if (starts.acknowledged.length === FAILOVER_AFTER && !failover) {
            failover = { startedAt: Date.now() };
            await sentinel.call('SENTINEL', 'FAILOVER', MASTER);
          }
        }
      };
      const watch = async () => {
        await pollUntil(() => Promise.resolve(failover), Boolean, 60_000, 20);
        await pollUntil(promoted, Boolean, 60_000, 20);
        failover!.promotedAt = Date.now();
      };
      await Promise.all([...Array.from({ length: CLIENTS }, start), watch()]);
      expect(starts.acknowledged).to.have.length(RUNS);
      await receiver.successes(RUNS);
      const calledBack = receiver.received.map(
        (delivery) => JSON.parse(delivery.body) as { pipeline_run_id: string; state: string },
      );
      expect(calledBack.every((body) => body.state === 'COMPLETED')).to.equal(true);
      expect(calledBack.map((body) => body.pipeline_run_id).sort()).to.deep.equal([...starts.acknowledged].sort());
      const kept = await client(replica.port).keys(`${deployment.settings.queue.prefix}:*`);
      expect(kept.length, 'the promoted replica holds the deployment’s keys').to.be.above(0);
      const failoverMs = failover!.promotedAt! - failover!.startedAt;
      const unavailableMs = starts.backAfter(failover!.startedAt) - failover!.startedAt;
      process.stdout.write(
        `      failover ${failoverMs} ms; 503 answers: ${starts.refusals.length}; 202 again ${unavailableMs} ms after the failover started\n`,
      );
      expect(unavailableMs).to.be.at.most(failoverMs + 5000);
    } finally {
      await deployment.close();
      await receiver.close();
    }
  });
});
