/**
 * The callback job processor: one signed POST per attempt, only for a job whose seal verifies (the service queued it
 * as it is: docs/run-ownership.md#queue-jobs; any other is refused and nothing is signed). A failed attempt is thrown
 * back to BullMQ, which retries
 * with exponential backoff and jitter; after the last attempt the job stays failed (dead-lettered) and is counted.
 * The secret is read when a signature is computed (spec §1.1); without it the delivery cannot be signed and is
 * dead-lettered at once. So is a delivery whose failure is not retryable (its destination refused by the SSRF guard
 * at connect time): it ends unrecoverable after that one attempt, its reason kept as the job's failed reason
 * (docs/outbound-requests.md#errors).
 */
import { type Job, UnrecoverableError } from 'bullmq';
import { CALLBACK_JOB, CALLBACK_QUEUE, type JobSeals } from '../queue/index.js';
import { traceCallbackDelivery } from '../tracing/index.js';
import { attemptCallback, type CallbackAttemptDeps } from './callback-attempt.js';
import { refuseJob } from './job-refusal.js';

/** What the processor needs. */
export interface CallbackProcessorDeps extends CallbackAttemptDeps {
  /** Verifies the seal of each delivery job before anything is signed. */
  seals: JobSeals;
}

/**
 * Build the processor.
 * @param deps - secret reader, clock, limits, logger and metrics
 */
export function createCallbackProcessor(
  deps: CallbackProcessorDeps,
): (job: Job, token?: string, signal?: AbortSignal) => Promise<{ status: number }> {
  return async (job, _token, signal) => {
    const opened = await deps.seals.open(CALLBACK_QUEUE, job.data);
    if (!opened) throw refuseJob(deps, CALLBACK_QUEUE, job, 'seal');
    const payload = CALLBACK_JOB.parse(opened);
    // a job of retries counts the run worker's first attempt (its attempts are one fewer)
    const delivery = {
      runId: payload.pipeline_run_id,
      url: payload.url,
      attempt: job.attemptsMade + 1,
      traceParent: payload.trace_parent,
    };
    const attempt = await traceCallbackDelivery(delivery, () =>
      attemptCallback(deps, payload, job.attemptsMade + 1, job.attemptsMade + 1 >= (job.opts.attempts ?? 1), signal),
    );
    if (attempt.outcome === 'delivered') return { status: attempt.status };
    if (attempt.outcome === 'dead_lettered' && attempt.terminal) {
      const error = attempt.error as { error_type?: string; message: string };
      throw new UnrecoverableError(error.error_type ? `${error.error_type}: ${error.message}` : error.message);
    }
    throw attempt.error;
  };
}
