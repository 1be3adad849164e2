/**
 * One attempt at a completion callback, whoever makes it (the run's worker right after the run ends, or the callback
 * queue's worker for a retry; docs/api.md#completion-callbacks): signed with the secret read now, sent through the
 * SSRF guard, counted in `mthds_callback_deliveries_total` and logged with its outcome.
 */
import { MthdsError } from '../../errors/index.js';
import type { HostResolver } from '../../net/index.js';
import type { Logger, Metrics } from '../../observability/index.js';
import { deliverCallback } from '../callbacks/index.js';
import type { CallbackJob } from '../queue/index.js';

/** What an attempt needs. */
export interface CallbackAttemptDeps {
  /** Reads `COMPLETION_CALLBACK_SECRET` at signing time. */
  readSecret(): string | undefined;
  now(): number;
  /** `CALLBACK_TIMEOUT_MS`. */
  timeoutMs: number;
  allowPrivateHosts: boolean;
  /** How host names resolve; the system resolver by default (tests map names without DNS). */
  resolver?: HostResolver;
  logger: Logger;
  metrics: Metrics;
}

/** How an attempt ended: delivered (the receiver's status), to retry later, or dead-lettered. */
export type CallbackAttempt =
  | { outcome: 'delivered'; status: number }
  | { outcome: 'retry'; error: unknown }
  | { outcome: 'dead_lettered'; error: unknown; terminal: boolean };

/**
 * Make one attempt.
 * @param deps - the secret reader, clock, limits, logger and metrics
 * @param payload - the delivery
 * @param attempt - its number, from 1
 * @param lastAttempt - no attempt follows this one (a failure dead-letters it)
 * @param signal - aborts the attempt (the worker closing)
 * @returns its outcome; `terminal` when no later attempt could succeed (no secret, a refused destination)
 */
export async function attemptCallback(
  deps: CallbackAttemptDeps,
  payload: CallbackJob,
  attempt: number,
  lastAttempt: boolean,
  signal?: AbortSignal,
): Promise<CallbackAttempt> {
  const log = deps.logger.child({
    request_id: payload.request_id,
    pipeline_run_id: payload.pipeline_run_id,
    callback_url: payload.url,
    attempt,
  });
  const secret = deps.readSecret();
  if (!secret) {
    deps.metrics.callbackDeliveries.inc({ outcome: 'dead_lettered' });
    log.error('callback:dead_lettered: COMPLETION_CALLBACK_SECRET is not set, the callback cannot be signed');
    return { outcome: 'dead_lettered', error: new Error('COMPLETION_CALLBACK_SECRET is not set'), terminal: true };
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
    return { outcome: 'delivered', status };
  } catch (error) {
    // a failure that cannot succeed later (a destination the SSRF guard refuses) ends the delivery at once
    const terminal = error instanceof MthdsError && error.retryable === false;
    const final = terminal || lastAttempt;
    deps.metrics.callbackDeliveries.inc({ outcome: final ? 'dead_lettered' : 'retried' });
    log.warn(
      { err: error, ...(terminal ? { retryable: false } : {}) },
      final ? `callback:dead_lettered: ${(error as Error).message}` : 'callback:retrying',
    );
    return final ? { outcome: 'dead_lettered', error, terminal } : { outcome: 'retry', error };
  }
}
