/**
 * Structured logging (pino). Server logs are always verbose (spec §7.5): full messages and causes, never sent to
 * callers. A line written while a span is active carries its `trace_id` and `span_id` (docs/tracing.md#logs).
 */
import { type Logger, pino } from 'pino';
import { traceLogFields } from './trace-context.js';

export type { Logger } from 'pino';

/**
 * Create the process logger.
 * @param level - pino level name; `silent` turns logging off (tests)
 * @param name - the process role, e.g. `api` or `worker`
 */
export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, base: { pid: process.pid }, mixin: traceLogFields });
}
