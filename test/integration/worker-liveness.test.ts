/**
 * A worker's liveness by its progress (shared/orchestration/workers/worker-liveness.ts, docs/redis.md#failover), on
 * real BullMQ queues and workers with the test's clock: live while its queue is empty or while it takes jobs, whatever
 * the time; not live once jobs have waited longer than the stall bound while it, with free slots, took none; live again
 * once it takes them; live while an operator has paused the queue.
 */

import { Queue, Worker } from 'bullmq';
import { expect } from 'chai';
import type { RedisClient } from '../../shared/config/index.js';
import { openRedis } from '../../shared/orchestration/queued.js';
import { WorkerLiveness } from '../../shared/orchestration/workers/worker-liveness.js';
import { pollUntil } from '../helpers/poll.js';
import { deletePrefix, TEST_REDIS_TARGET, uniquePrefix } from '../helpers/redis.js';

const STALL_MS = 60_000;

describe('worker liveness by progress (BullMQ on real Redis, the test’s clock)', function () {
  this.timeout(30_000);
  let prefix: string;
  let queue: Queue;
  let connection: RedisClient;
  let worker: Worker;
  let now: number;
  let liveness: WorkerLiveness;
  const done: string[] = [];

  beforeEach(async () => {
    prefix = uniquePrefix();
    now = 1_000_000;
    done.length = 0;
    connection = openRedis(TEST_REDIS_TARGET, 'worker');
    queue = new Queue('work', { connection, prefix });
    worker = new Worker(
      'work',
      async (job) => {
        done.push(job.id!);
      },
      { connection, prefix, concurrency: 2, autorun: false },
    );
    liveness = new WorkerLiveness([{ worker, queue, concurrency: 2 }], STALL_MS, () => now);
    await worker.waitUntilReady();
  });

  afterEach(async () => {
    await worker.close(true);
    await queue.close();
    connection.disconnect();
    await deletePrefix(prefix);
  });

  it('should stay live with nothing to take, however long', async () => {
    void worker.run();
    now += 10 * STALL_MS;
    expect(await liveness.check()).to.deep.equal({ live: true });
  });

  it('should not be live once jobs wait past the bound while it takes none, and be live again once it takes them', async () => {
    await queue.add('job', {}, { jobId: 'a' });
    await queue.add('job', {}, { jobId: 'b', priority: 3 });
    now += STALL_MS;
    expect(await liveness.check(), 'not yet past the bound').to.deep.equal({ live: true });
    now += 1000;
    expect(await liveness.check()).to.deep.equal({
      live: false,
      reason: "2 job(s) wait in queue 'work' while its worker, with 2 free slot(s), has taken none for 61 s",
    });
    void worker.run();
    await pollUntil(
      async () => done.length,
      (count) => count === 2,
      10_000,
      10,
    );
    expect(await liveness.check()).to.deep.equal({ live: true });
  });

  it('should stay live while an operator has paused the queue', async () => {
    await queue.add('job', {}, { jobId: 'held' });
    await queue.pause();
    now += 2 * STALL_MS;
    expect(await liveness.check()).to.deep.equal({ live: true });
  });
});
