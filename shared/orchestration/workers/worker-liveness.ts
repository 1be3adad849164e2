/**
 * A worker process's liveness by its progress (docs/redis.md#failover): a process whose Redis connections came back
 * after an outage or a failover may still answer `PING` and its metrics while one of its BullMQ workers no longer takes
 * jobs. It is live unless jobs have been waiting in a queue it consumes for longer than the stall bound while that
 * worker, with free slots, took and ended none. Whatever it cannot tell (Redis unreachable, a queue
 * paused by an operator) counts as live: restarting the process would not help, and readiness reports Redis.
 */
import type { Queue, Worker } from 'bullmq';

/** One BullMQ worker and the queue it consumes. */
export interface Consumer {
  worker: Worker;
  queue: Queue;
  /** Jobs it runs at once. */
  concurrency: number;
}

/** The verdict. */
export type Liveness = { live: true } | { live: false; reason: string };

/** How a consumer has been doing, from its worker's events. */
interface Progress {
  consumer: Consumer;
  /** Jobs it runs now. */
  active: number;
  /** When it last took or ended a job (or started), epoch ms. */
  movedAt: number;
}

/** Tells whether the consumers of one process still make progress. */
export class WorkerLiveness {
  private readonly progress: Progress[];

  /**
   * @param consumers - the process's workers and their queues
   * @param stallMs - how long jobs may wait while a consumer with free slots takes none, ms (`WORKER_LIVENESS_STALL_SECONDS`)
   * @param now - the clock, epoch ms
   */
  constructor(
    consumers: readonly Consumer[],
    private readonly stallMs: number,
    private readonly now: () => number,
  ) {
    this.progress = consumers.map((consumer) => {
      const entry: Progress = { consumer, active: 0, movedAt: now() };
      const moved = () => {
        entry.movedAt = this.now();
      };
      consumer.worker.on('active', () => {
        entry.active += 1;
        moved();
      });
      const ended = () => {
        entry.active = Math.max(0, entry.active - 1);
        moved();
      };
      consumer.worker.on('completed', ended);
      consumer.worker.on('failed', ended);
      return entry;
    });
  }

  /**
   * Check every consumer (one `getJobCounts` and one `isPaused` call per queue whose worker has been still for longer
   * than the stall bound).
   * @returns live, or not live with the first stalled consumer's queue, wait and free slots
   */
  async check(): Promise<Liveness> {
    for (const { consumer, active, movedAt } of this.progress) {
      const stillMs = this.now() - movedAt;
      if (stillMs <= this.stallMs || active >= consumer.concurrency) continue;
      let waiting: number;
      try {
        if (await consumer.queue.isPaused()) continue;
        const counts = await consumer.queue.getJobCounts('wait', 'prioritized');
        waiting = (counts['wait'] ?? 0) + (counts['prioritized'] ?? 0);
      } catch {
        continue;
      }
      if (waiting > 0)
        return {
          live: false,
          reason: `${waiting} job(s) wait in queue '${consumer.queue.name}' while its worker, with ${consumer.concurrency - active} free slot(s), has taken none for ${Math.round(stillMs / 1000)} s`,
        };
    }
    return { live: true };
  }
}
