/**
 * Waiting for a BullMQ job to finish. BullMQ's own `Job.waitUntilFinished` reads the job's state once its listeners are
 * set, inside a promise executor: when Redis fails that read, its promise never settles and the failure surfaces as an
 * unhandled rejection, which ends the process (`shared/lifecycle/fatal-errors.ts`). {@link jobFinished} does the same
 * wait with the listener of {@link finishedValue} and a state read whose failure rejects the wait: a Redis outage is a
 * `QueueUnavailableError` (docs/redis.md#failover).
 */
import type { EventEmitter } from 'node:events';
import type { Queue, QueueEvents } from 'bullmq';
import { whenQueueReachable } from './queue-outage.js';

/**
 * The return value of a job from its completion event, as BullMQ's `Job.waitUntilFinished` takes it, without its
 * read of the job's state: the listener must be listening from before the job was added.
 * @param events - the queue's listener
 * @param jobId - the job's id
 * @param signal - stops listening (the promise then rejects with its reason)
 * @throws Error with the job's failure reason when it failed
 */
export function finishedValue(events: QueueEvents, jobId: string, signal: AbortSignal): Promise<unknown> {
  // BullMQ types only the listener's queue-wide events, not the per-job ones it also emits (`completed:<job id>`)
  const emitter = events as unknown as EventEmitter;
  return new Promise<unknown>((resolve, reject) => {
    const completed = `completed:${jobId}`;
    const failed = `failed:${jobId}`;
    const onCompleted = ({ returnvalue }: { returnvalue: unknown }) => {
      stop();
      resolve(returnvalue);
    };
    const onFailed = ({ failedReason }: { failedReason: string }) => {
      stop();
      reject(new Error(failedReason));
    };
    const onAbort = () => {
      stop();
      reject(signal.reason);
    };
    const stop = () => {
      emitter.off(completed, onCompleted);
      emitter.off(failed, onFailed);
      signal.removeEventListener('abort', onAbort);
    };
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    emitter.on(completed, onCompleted);
    emitter.on(failed, onFailed);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The wait of {@link jobFinished} ended at its timeout, the job still unfinished. */
export class JobWaitTimeoutError extends Error {
  /**
   * @param jobId - the job waited for
   * @param timeoutMs - the wait's bound, ms
   */
  constructor(jobId: string, timeoutMs: number) {
    super(`The wait for job ${jobId} timed out after ${timeoutMs} ms`);
    this.name = 'JobWaitTimeoutError';
  }
}

/** How long {@link jobFinished} waits, and what stops it. */
export interface JobWaitOptions {
  /** How long to wait at most, in ms; no bound when absent. */
  timeoutMs?: number;
  /** Stops the wait, its listener removed (the wait then rejects with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * Wait until a job has finished: its return value once it completed, before or during the wait.
 * @param queue - the job's queue (its state is read from there)
 * @param jobId - the job's id
 * @param events - the queue's listener
 * @param options - the wait's bound and its stop signal
 * @returns the job's return value
 * @throws Error with the job's failure reason when it failed; Error "… is gone" when the job no longer exists;
 *   JobWaitTimeoutError past the timeout; the signal's reason once it aborts; QueueUnavailableError (503, retryable)
 *   when Redis cannot be read
 */
export async function jobFinished(
  queue: Queue,
  jobId: string,
  events: QueueEvents,
  options: JobWaitOptions = {},
): Promise<unknown> {
  const { timeoutMs, signal } = options;
  const done = new AbortController();
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => done.abort(new JobWaitTimeoutError(jobId, timeoutMs)), timeoutMs).unref();
  // listening first: a completion after the read below is heard
  const value = finishedValue(events, jobId, signal ? AbortSignal.any([done.signal, signal]) : done.signal);
  value.catch(() => undefined);
  try {
    // the state first: once it says finished, the job's fields are final
    const finished = await whenQueueReachable(
      async () => {
        await events.waitUntilReady();
        const state = await queue.getJobState(jobId);
        if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return undefined;
        return { state, job: state === 'unknown' ? undefined : await queue.getJob(jobId) };
      },
      (reason) => `The queue (Redis) is unreachable: ${reason}.`,
    );
    if (finished) {
      if (!finished.job) throw new Error(`Job ${jobId} is gone`);
      if (finished.state === 'failed') throw new Error(finished.job.failedReason);
      return finished.job.returnvalue;
    }
    return await value;
  } finally {
    clearTimeout(timer);
    done.abort();
  }
}
