/**
 * Public surface of `shared/observability`: logging, metrics, tracing (docs/tracing.md), and the errors handled by
 * carrying on.
 */
export { createLogger, type Logger } from './logger.js';
export { type JobCounter, Metrics, type PoolOccupancyReader, type QueueHeadReader } from './metrics.js';
export {
  SWALLOWED_ERROR_QUIET_MS,
  SwallowedErrors,
  type SwallowedErrorsOptions,
  swallowedErrors,
  swallowedErrorsCounter,
} from './swallowed-errors.js';
export {
  activeTraceId,
  contextFromTraceParent,
  serviceTracer,
  TRACEPARENT_PATTERN,
  traceParentOf,
} from './trace-context.js';
export { captureGenAiContent, startTracing, type Tracing, tracingOn } from './tracing.js';
