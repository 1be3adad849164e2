/**
 * Waiting for a BullMQ job to finish (`shared/orchestration/queue/job-finished.ts`), real Redis: a job that finished
 * before the wait is read back, one that finishes during it is heard, a failed one rejects with its reason, and a
 * Redis failure while the job's state is read rejects the wait with `QueueUnavailableError` instead of leaving it
 * pending and raising an unhandled rejection (what BullMQ's `Job.waitUntilFinished` does, which ends the process).
 */
import { type Job, Queue, QueueEvents, Worker } from 'bullmq';
import { expect } from 'chai';
import { openRedis } from '../../shared/orchestration/queue/index.js';
import { JobWaitTimeoutError, jobFinished } from '../../shared/orchestration/queue/job-finished.js';
import { deletePrefix, TEST_REDIS_TARGET, uniquePrefix } from '../helpers/redis.js';

describe('jobFinished: waiting for a job without BullMQ’s unhandled rejection', function () {
  this.timeout(20_000);
  const prefix = uniquePrefix();
  /** Every connection the suite opens, closed at its end (BullMQ leaves a connection it was given open). */
  const connections: ReturnType<typeof openRedis>[] = [];
  const connect = () => {
    const connection = openRedis(TEST_REDIS_TARGET, 'worker');
    connections.push(connection);
    return connection;
  };
  const queue = new Queue('waits', { connection: connect(), prefix });
  const events = new QueueEvents('waits', { connection: connect(), prefix });
  let worker: Worker | undefined;

  after(async () => {
    await worker?.close();
    await events.close();
    await queue.close();
    for (const connection of connections) connection.disconnect();
    await deletePrefix(prefix);
  });

  it('should read back a job that completed before the wait, and hear one that completes during it', async () => {
    worker = new Worker('waits', async (job: Job) => ({ doubled: (job.data as { n: number }).n * 2 }), {
      connection: connect(),
      prefix,
      autorun: false,
    });
    const early = await queue.add('early', { n: 2 });
    void worker.run();
    await worker.waitUntilReady();
    expect(await jobFinished(queue, early.id!, events)).to.deep.equal({ doubled: 4 });
    const late = await queue.add('late', { n: 5 });
    expect(await jobFinished(queue, late.id!, events)).to.deep.equal({ doubled: 10 });
  });

  it('should reject with the reason of a job that failed', async () => {
    await worker?.close();
    worker = new Worker(
      'waits',
      async (): Promise<unknown> => {
        throw new Error('the job gave up');
      },
      { connection: connect(), prefix },
    );
    const job = await queue.add('failing', {});
    const failure = await jobFinished(queue, job.id!, events).then(
      () => undefined,
      (error: unknown) => (error as Error).message,
    );
    expect(failure).to.equal('the job gave up');
  });

  it('should reject past its timeout a job nobody takes', async () => {
    await worker?.close();
    worker = undefined;
    const job = await queue.add('untaken', {});
    const failure = await jobFinished(queue, job.id!, events, { timeoutMs: 50 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(JobWaitTimeoutError);
    expect((failure as Error).message).to.equal(`The wait for job ${job.id} timed out after 50 ms`);
  });

  it('should reject with its signal’s reason once it aborts, and stop listening for the job', async () => {
    const job = await queue.add('abandoned', {});
    const stop = new AbortController();
    const waiting = jobFinished(queue, job.id!, events, { signal: stop.signal }).then(
      () => undefined,
      (error: unknown) => error,
    );
    // BullMQ types only the listener's queue-wide events, not the per-job ones it emits
    const listening = () => (events as unknown as NodeJS.EventEmitter).listenerCount(`completed:${job.id}`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(listening()).to.equal(1);
    stop.abort(new Error('the run was cancelled'));
    expect(((await waiting) as Error).message).to.equal('the run was cancelled');
    expect(listening()).to.equal(0);
  });

  it('should reject with QueueUnavailableError when its state cannot be read, and raise no unhandled rejection', async () => {
    const broken = connect();
    const brokenQueue = new Queue('waits', { connection: broken, prefix });
    const job = await brokenQueue.add('stranded', {});
    broken.disconnect();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failure = await jobFinished(brokenQueue, job.id!, events).then(
        () => undefined,
        (error: unknown) => error as { error_type?: string; retryable?: boolean; message?: string },
      );
      expect(failure).to.include({
        error_type: 'QueueUnavailableError',
        retryable: true,
        message: 'The queue (Redis) is unreachable: Connection is closed..',
      });
      // an unhandled rejection is reported after the microtasks of its turn: one more turn of the event loop
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await brokenQueue.close().catch(() => undefined);
    }
  });
});
