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
import { MthdsError } from '../../errors/index.js';
import type { HostResolver } from '../../net/index.js';
import type { Logger, Metrics } from '../../observability/index.js';
import { deliverCallback } from '../callbacks/index.js';
import { CALLBACK_JOB, CALLBACK_QUEUE, type JobSeals } from '../queue/index.js';
import { refuseJob } from './job-refusal.js';

/** What the processor needs. */
export interface CallbackProcessorDeps {
  /** Reads `COMPLETION_CALLBACK_SECRET` at signing time. */
  readSecret(): string | undefined;
  /** Verifies the seal of each delivery job before anything is signed. */
  seals: JobSeals;
  now(): number;
  timeoutMs: number;
  allowPrivateHosts: boolean;
  /** How host names resolve; the system resolver by default (tests map names without DNS). */
  resolver?: HostResolver;
  logger: Logger;
  metrics: Metrics;
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
    const log = deps.logger.child({
      request_id: payload.request_id,
      pipeline_run_id: payload.pipeline_run_id,
      callback_url: payload.url,
      attempt: job.attemptsMade + 1,
    });
    const secret = deps.readSecret();
    if (!secret) {
      deps.metrics.callbackDeliveries.inc({ outcome: 'dead_lettered' });
      log.error('callback:dead_lettered: COMPLETION_CALLBACK_SECRET is not set, the callback cannot be signed');
      throw new UnrecoverableError('COMPLETION_CALLBACK_SECRET is not set');
    }
    try {
      const status = await deliverCallback({
        url: payload.url,
        runId: payload.pipeline_run_id,
        body: payload.body,
        secret,
        nowSeconds: Math.floor(deps.now() / 1000),
        timeoutMs: deps.timeoutMs,
        allowPrivateHosts: deps.allowPrivateHosts,
        ...(signal ? { signal } : {}),
        ...(deps.resolver ? { resolver: deps.resolver } : {}),
      });
      deps.metrics.callbackDeliveries.inc({ outcome: 'delivered' });
      log.info({ status }, 'callback:delivered');
      return { status };
    } catch (error) {
      // a failure that cannot succeed later (a destination the SSRF guard refuses) ends the delivery at once
      const terminal = error instanceof MthdsError && error.retryable === false;
      const final = terminal || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      deps.metrics.callbackDeliveries.inc({ outcome: final ? 'dead_lettered' : 'retried' });
      log.warn(
        { err: error, ...(terminal ? { retryable: false } : {}) },
        final ? `callback:dead_lettered: ${(error as Error).message}` : 'callback:retrying',
      );
      throw terminal ? new UnrecoverableError(`${error.error_type}: ${error.message}`) : error;
    }
  };
}
