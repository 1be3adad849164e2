/**
 * The callback job processor: one signed POST per attempt. A failed attempt is thrown back to BullMQ, which retries
 * with exponential backoff and jitter; after the last attempt the job stays failed (dead-lettered) and is counted.
 * The secret is read when a signature is computed (spec §1.1); without it the delivery cannot be signed and is
 * dead-lettered at once.
 */
import { type Job, UnrecoverableError } from 'bullmq';
import type { Logger, Metrics } from '../../observability/index.js';
import { deliverCallback } from '../callbacks/index.js';
import { CALLBACK_JOB } from '../queue/index.js';

/** What the processor needs. */
export interface CallbackProcessorDeps {
  /** Reads `COMPLETION_CALLBACK_SECRET` at signing time. */
  readSecret(): string | undefined;
  now(): number;
  timeoutMs: number;
  allowPrivateHosts: boolean;
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
    const payload = CALLBACK_JOB.parse(job.data);
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
      });
      deps.metrics.callbackDeliveries.inc({ outcome: 'delivered' });
      log.info({ status }, 'callback:delivered');
      return { status };
    } catch (error) {
      const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      deps.metrics.callbackDeliveries.inc({ outcome: final ? 'dead_lettered' : 'retried' });
      log.warn({ err: error }, final ? 'callback:dead_lettered' : 'callback:retrying');
      throw error;
    }
  };
}
