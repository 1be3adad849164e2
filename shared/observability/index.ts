/**
 * Public surface of `shared/observability`: logging, metrics, and the errors handled by carrying on.
 */
export { createLogger, type Logger } from './logger.js';
export { type JobCounter, Metrics, type PoolOccupancyReader } from './metrics.js';
export {
  SWALLOWED_ERROR_QUIET_MS,
  SwallowedErrors,
  type SwallowedErrorsOptions,
  swallowedErrors,
  swallowedErrorsCounter,
} from './swallowed-errors.js';
