/**
 * Public surface of `shared/observability`: logging and metrics.
 */
export { createLogger, type Logger } from './logger.js';
export { Metrics, type JobCounter, type PoolOccupancyReader } from './metrics.js';
