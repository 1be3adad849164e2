/**
 * The completion callbacks of a run that just ended, sent by the worker that ended it (docs/api.md#completion-callbacks):
 * each URL's first attempt is made at once, from this process, and only a delivery that fails and may succeed later
 * goes to the callback queue, for its retries with backoff. A run's callbacks thus cost no queue job when their
 * receivers answer.
 */
import type { CallbackJob, CallbackQueue } from '../queue/index.js';
import { traceCallbackDelivery, withTraceParent } from '../tracing/index.js';
import { attemptCallback, type CallbackAttemptDeps } from './callback-attempt.js';

/** Where the callbacks of an ended run go. */
export interface CallbackSink {
  /**
   * Deliver or queue each callback.
   * @param jobs - one delivery per URL
   * @throws QueueUnavailableError when a delivery to retry cannot be queued
   */
  send(jobs: CallbackJob[]): Promise<void>;
}

/** Sends first attempts from this process, and queues the retries. */
export class CallbackSender implements CallbackSink {
  /**
   * @param queue - where the retries go (`CALLBACK_MAX_ATTEMPTS` counts this first attempt)
   * @param deps - what an attempt needs
   */
  constructor(
    private readonly queue: CallbackQueue,
    private readonly deps: CallbackAttemptDeps,
  ) {}

  async send(sent: CallbackJob[]): Promise<void> {
    const lastAttempt = this.queue.maxAttempts <= 1;
    const jobs = sent.map(withTraceParent);
    const attempts = await Promise.all(
      jobs.map((job) =>
        traceCallbackDelivery(
          { runId: job.pipeline_run_id, url: job.url, attempt: 1, traceParent: job.trace_parent },
          () => attemptCallback(this.deps, job, 1, lastAttempt),
        ),
      ),
    );
    const retries = jobs.filter((_, index) => attempts[index]?.outcome === 'retry');
    if (retries.length > 0) await this.queue.enqueue(retries, { retries: true });
  }
}
