/**
 * Public surface of `shared/observability`: logging.
 */
export { createLogger, type Logger } from './logger.js';
