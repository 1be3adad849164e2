/**
 * Shutdown on SIGTERM / SIGINT with a hard deadline (docs/run-failures.md#shutdown-and-grace-periods). The first signal
 * releases the
 * process's {@link ResourceStack}; the process exits with status 0 when everything closed, 1 when a release failed.
 * Whatever happens (Redis down, a connection that never ends), the process has exited `deadlineMs` after the signal,
 * with status 1. A second signal exits at once with status 1.
 */
import type { Logger } from '../observability/index.js';
import type { ResourceStack } from './resource-stack.js';

/**
 * Time allowed beyond a grace period to close connections (Redis `QUIT`, queue handles), in ms. Entry points set their
 * deadline to their grace period plus this allowance.
 */
export const CLOSE_ALLOWANCE_MS = 1000;

/** Exit statuses of a shutdown. */
const SHUTDOWN_EXIT_CODES = { clean: 0, forced: 1 } as const;

/** How a process shuts down. */
export interface ShutdownOptions {
  logger: Logger;
  /** What to release, last opened first. */
  resources: ResourceStack;
  /** Bound from the first signal to the exit, in ms. */
  deadlineMs: number;
  /** Ends the process; `process.exit` unless a test injects another. */
  exit?: (code: number) => void;
}

/**
 * Install the SIGTERM / SIGINT handlers.
 * @param options - logger, resources, deadline (ms) and exit function
 */
export function shutdownOnSignals(options: ShutdownOptions): void {
  const { logger, resources, deadlineMs } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(
        { signal, pending: resources.pending() },
        `shutdown:forced by a second ${signal}; exiting with status ${SHUTDOWN_EXIT_CODES.forced}`,
      );
      logger.flush();
      exit(SHUTDOWN_EXIT_CODES.forced);
      return;
    }
    stopping = true;
    logger.info(
      { signal, deadline_ms: deadlineMs, resources: resources.pending() },
      'shutdown:start: releasing resources',
    );
    const deadline = setTimeout(() => {
      logger.error(
        { pending: resources.pending() },
        `shutdown:deadline of ${deadlineMs} ms passed; exiting with status ${SHUTDOWN_EXIT_CODES.forced}`,
      );
      logger.flush();
      exit(SHUTDOWN_EXIT_CODES.forced);
    }, deadlineMs);
    void resources.close().then((failures) => {
      clearTimeout(deadline);
      for (const failure of failures)
        logger.error({ err: failure.error, resource: failure.name }, 'shutdown:release failed');
      const code = failures.length === 0 ? SHUTDOWN_EXIT_CODES.clean : SHUTDOWN_EXIT_CODES.forced;
      logger.info({ exit_code: code }, 'shutdown:done');
      logger.flush();
      exit(code);
    });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
