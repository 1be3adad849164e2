/**
 * The rate limits' observer that records them in the process metrics (docs/metrics.md) and, while tracing is on, on
 * the span of the call they held back (docs/tracing.md#provider-calls): a `rate_limit.wait` event when a call waited,
 * `rate_limit.timed_out` when it gave up.
 */
import { trace } from '@opentelemetry/api';
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
      if (reasons.size > 0)
        trace.getActiveSpan()?.addEvent('rate_limit.wait', {
          'mthds.rate_limit.waited_ms': waitedMs,
          'mthds.rate_limit.reasons': [...reasons],
        });
    },
    timedOut(backend, model, reason) {
      metrics.inferenceThrottledCalls.inc({ backend, model, reason, outcome: 'timed_out' });
      trace.getActiveSpan()?.addEvent('rate_limit.timed_out', { 'mthds.rate_limit.reason': reason });
    },
    paused(backend, seconds) {
      metrics.inferenceBackendPauses.inc({ backend });
      metrics.inferenceBackendPauseSeconds.inc({ backend }, seconds);
    },
  };
}
