/**
 * Public surface of `shared/observability`: logging and metrics.
 */
export { createLogger, type Logger } from './logger.js';
export { type JobCounter, Metrics, type PoolOccupancyReader } from './metrics.js';
