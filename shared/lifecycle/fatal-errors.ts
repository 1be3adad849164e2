/**
 * The fatal-error policy of the service's processes (docs/run-failures.md#uncaught-errors): an exception or promise
 * rejection nothing handled means the process is in an unknown state, so it is logged at `fatal` level with the
 * requests and runs the process had in progress (the crash context) and the process exits with status 1 at once.
 * The supervisor (Docker, Kubernetes, systemd) restarts it; runs it held are retaken by stalled-job recovery, in
 * quarantine.
 */
import type { Logger } from '../observability/index.js';
import { crashFields } from './crash-context.js';

/** Exit status after an uncaught exception or unhandled rejection. */
const FATAL_EXIT_CODE = 1;

/**
 * Install the policy on `process` (once, at start-up of an entry point).
 * @param logger - the process logger
 * @param exit - how to end the process; `process.exit` unless a test injects another
 */
export function installFatalErrorPolicy(
  logger: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  const die = (kind: 'uncaughtException' | 'unhandledRejection') => (error: unknown) => {
    logger.fatal(
      { err: error, kind, ...crashFields() },
      `process:fatal: ${kind}; exiting with status ${FATAL_EXIT_CODE} for the supervisor to restart the process`,
    );
    logger.flush();
    exit(FATAL_EXIT_CODE);
  };
  process.on('uncaughtException', die('uncaughtException'));
  process.on('unhandledRejection', die('unhandledRejection'));
}
