/**
 * The run queue's jobs as a stop reads and removes them (docs/cancellation.md#how-a-run-stops): the payload of each
 * stopped run's job (for its callbacks and an offloaded payload), its seal verified, and the removal of the jobs no
 * worker holds. Payloads are read in one pipeline (one `HGET` of each job's data); jobs are removed together.
 */
import type { Queue } from 'bullmq';
import type { RedisClient } from '../../config/index.js';
import type { StoppableJobs } from '../control/index.js';
import { QUEUED_RUN_JOB, type QueuedRunJob } from './job-payloads.js';
import type { JobSeals } from './job-seals.js';
import { RUN_QUEUE } from './queue-keys.js';
import { whenQueueReachable } from './queue-outage.js';

function unreachable(reason: string): string {
  return `The run queue (Redis) is unreachable: ${reason}. Retry later.`;
}

/** The jobs of one run queue. */
export class RunQueueJobs implements StoppableJobs {
  /**
   * @param queue - the run queue (BullMQ)
   * @param redis - a connection to the queue's Redis, on which the payloads are read
   * @param seals - verifies the jobs' seals
   */
  constructor(
    private readonly queue: Queue,
    private readonly redis: RedisClient,
    private readonly seals: JobSeals,
  ) {}

  payloads(jobIds: readonly string[]): Promise<(QueuedRunJob | undefined)[]> {
    return whenQueueReachable(async () => {
      if (jobIds.length === 0) return [];
      const pipeline = this.redis.pipeline();
      for (const jobId of jobIds) pipeline.hget(this.queue.toKey(jobId), 'data');
      const replies = (await pipeline.exec()) ?? [];
      return Promise.all(
        replies.map(async ([error, text]) => {
          if (error || typeof text !== 'string') return undefined;
          const parsed = QUEUED_RUN_JOB.safeParse(await this.seals.open(RUN_QUEUE, JSON.parse(text)));
          return parsed.success ? parsed.data : undefined;
        }),
      );
    }, unreachable);
  }

  removeWaiting(jobIds: readonly string[]): Promise<void> {
    return whenQueueReachable(async () => {
      await Promise.all(jobIds.map((jobId) => this.queue.remove(jobId)));
    }, unreachable);
  }
}
