/**
 * Structured logging (pino). Server logs are always verbose (spec §7.5): full messages and causes, never sent to
 * callers.
 */
import { type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/**
 * Create the process logger.
 * @param level - pino level name; `silent` turns logging off (tests)
 * @param name - the process role, e.g. `api` or `worker`
 */
export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, base: { pid: process.pid } });
}
