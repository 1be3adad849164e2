/**
 * The producer side of the run queue: enqueue a run job, and wait for a job to finish (blocking `/v1/execute` in
 * queue mode). A Redis outage is a 503 `QueueUnavailableError`, never a hang.
 */
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { QueueUnavailableError } from '../../errors/index.js';
import { RUN_JOB, type RunJob } from './job-payloads.js';
import { type QueueKeys, RUN_QUEUE } from './queue-keys.js';
import { whenQueueReachable } from './queue-outage.js';

/** Options of the run queue. */
export interface RunQueueOptions {
  /** Producer connection (fails fast). */
  connection: Redis;
  /** Blocking connection for completion events (lazily used). */
  eventsConnection: () => Redis;
  keys: QueueKeys;
  /** Attempts of a run whose failure is retryable. */
  maxAttempts: number;
  /** How long finished jobs stay in BullMQ (dashboards), in seconds. */
  keepSeconds: number;
}

const ENQUEUE_TIMEOUT_MS = 5000;
/**
 * How far back the completion listener first reads the queue's events, in ms: it starts on the first blocking execute,
 * after that run's job was added, and covers a clock difference between this host and Redis.
 */
const EVENTS_REPLAY_MS = 60_000;

/** Run queue producer. */
export class RunQueue {
  readonly queue: Queue;
  private events: QueueEvents | undefined;

  constructor(private readonly options: RunQueueOptions) {
    this.queue = new Queue(RUN_QUEUE, { connection: options.connection, prefix: options.keys.bullPrefix });
    this.queue.on('error', () => undefined);
  }

  /**
   * Enqueue a run; resolves once Redis has stored it.
   * @param job - the payload (validated here)
   * @param workflowId - the BullMQ job id
   * @throws QueueUnavailableError (503) when Redis does not take the job in time or is unreachable; any other failure
   *   (not an outage) unchanged
   */
  async enqueue(job: RunJob, workflowId: string): Promise<void> {
    const payload = RUN_JOB.parse(job);
    const unavailable = (reason: string) =>
      `The run queue (Redis) did not accept the run: ${reason}. Nothing was enqueued; retry later.`;
    await whenQueueReachable(
      () =>
        Promise.race([
          this.queue.add('run', payload, {
            jobId: workflowId,
            attempts: this.options.maxAttempts,
            backoff: { type: 'exponential', delay: 1000, jitter: 0.5 },
            removeOnComplete: { age: this.options.keepSeconds },
            removeOnFail: { age: this.options.keepSeconds },
          }),
          new Promise((_, reject) =>
            setTimeout(
              () =>
                reject(
                  new QueueUnavailableError(unavailable(`no answer within ${ENQUEUE_TIMEOUT_MS} ms`), {
                    retryable: true,
                  }),
                ),
              ENQUEUE_TIMEOUT_MS,
            ).unref(),
          ),
        ]),
      unavailable,
    );
  }

  /**
   * Wait until a job has finished (completed or failed) or the timeout passes.
   * @param workflowId - the BullMQ job id
   * @param timeoutMs - bound of the wait
   * @returns true when the job finished, false on timeout (the caller reads the outcome from the registry)
   */
  async waitUntilFinished(workflowId: string, timeoutMs: number): Promise<boolean> {
    if (!this.events) {
      // The listener starts after the job was added, maybe after it finished: it reads the events from a minute back
      // (once), so a completion between the add and its first read is not missed.
      this.events = new QueueEvents(RUN_QUEUE, {
        connection: this.options.eventsConnection(),
        prefix: this.options.keys.bullPrefix,
        lastEventId: `${Date.now() - EVENTS_REPLAY_MS}-0`,
      });
      this.events.on('error', () => undefined);
    }
    const job = await this.queue.getJob(workflowId);
    if (!job) return true;
    try {
      await job.waitUntilFinished(this.events, timeoutMs);
      return true;
    } catch (error) {
      return !/timed out/i.test((error as Error).message);
    }
  }

  /** Counts of jobs by state, for the metrics gauges. */
  counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
  }

  /** Close the queue and the events listener. */
  async close(): Promise<void> {
    await Promise.allSettled([this.queue.close(), this.events?.close()]);
  }
}
