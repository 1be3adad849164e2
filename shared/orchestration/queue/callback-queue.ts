/**
 * The producer side of the callback queue: one delivery job per callback URL, sealed (the worker signs only what the
 * service queued: docs/run-ownership.md#queue-jobs), retried with exponential backoff and jitter; a job that
 * exhausts its attempts stays in the failed set, the dead-letter state (spec §6).
 */
import { Queue } from 'bullmq';
import type { RedisClient } from '../../config/index.js';
import { swallowedErrors } from '../../observability/index.js';
import { withTraceParent } from '../tracing/index.js';
import { CALLBACK_JOB, type CallbackJob } from './job-payloads.js';
import type { JobSeals } from './job-seals.js';
import { CALLBACK_QUEUE, type QueueKeys } from './queue-keys.js';

/** Options of the callback queue. */
export interface CallbackQueueOptions {
  connection: RedisClient;
  keys: QueueKeys;
  /** Seals each delivery job. */
  seals: JobSeals;
  /** Delivery attempts before dead-lettering. */
  maxAttempts: number;
  /** First backoff delay in ms (doubles each attempt, ±50 % jitter). */
  backoffMs: number;
}

/** Seconds dead-lettered deliveries are kept for inspection. */
const DEAD_LETTER_KEEP_SECONDS = 7 * 24 * 3600;

/** Callback queue producer. */
export class CallbackQueue {
  readonly queue: Queue;

  constructor(private readonly options: CallbackQueueOptions) {
    this.queue = new Queue(CALLBACK_QUEUE, { connection: options.connection, prefix: options.keys.bullPrefix });
    // its connection's failures, relayed (docs/metrics.md#swallowed-errors)
    this.queue.on('error', (error) => swallowedErrors.report('callback-queue', error));
  }

  /**
   * Enqueue one delivery per URL, sealed.
   * @param jobs - payloads (validated here)
   * @param options - `retries`: the deliveries' first attempt was made already (by the run's worker,
   *   docs/api.md#completion-callbacks), so the jobs carry the attempts left and start after the first backoff
   */
  async enqueue(jobs: CallbackJob[], options: { retries?: boolean } = {}): Promise<void> {
    const sealed = await Promise.all(
      jobs.map((job) => this.options.seals.seal(CALLBACK_QUEUE, CALLBACK_JOB.parse(withTraceParent(job)))),
    );
    await this.queue.addBulk(
      sealed.map((data) => ({
        name: 'callback',
        data,
        opts: {
          attempts: options.retries ? this.options.maxAttempts - 1 : this.options.maxAttempts,
          ...(options.retries ? { delay: this.options.backoffMs } : {}),
          backoff: { type: 'exponential', delay: this.options.backoffMs, jitter: 0.5 },
          removeOnComplete: { age: 24 * 3600 },
          removeOnFail: { age: DEAD_LETTER_KEEP_SECONDS },
        },
      })),
    );
  }

  /** Delivery attempts of a callback before it is dead-lettered (`CALLBACK_MAX_ATTEMPTS`). */
  get maxAttempts(): number {
    return this.options.maxAttempts;
  }

  /** Counts of deliveries by state (the failed ones are dead-lettered). */
  counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
  }

  /** Close the queue. */
  async close(): Promise<void> {
    await this.queue.close();
  }
}
