/**
 * The rate limits' observer that records them in the process metrics (docs/metrics.md).
 */
import type { Metrics } from '../../observability/index.js';
import type { RateLimitOptions } from '../routed-backend.js';

/**
 * An observer counting waits, refusals and backend pauses.
 * @param metrics - the process metrics
 */
export function throttleMetrics(metrics: Metrics): NonNullable<RateLimitOptions['observer']> {
  return {
    admitted(backend, model, waitedMs, reasons) {
      metrics.inferenceRateLimitWait.observe({ backend, model }, waitedMs / 1000);
      for (const reason of reasons)
        metrics.inferenceThrottledCalls.inc({ backend, model, reason, outcome: 'admitted' });
    },
    timedOut(backend, model, reason) {
      metrics.inferenceThrottledCalls.inc({ backend, model, reason, outcome: 'timed_out' });
    },
    paused(backend, seconds) {
      metrics.inferenceBackendPauses.inc({ backend });
      metrics.inferenceBackendPauseSeconds.inc({ backend }, seconds);
    },
  };
}
