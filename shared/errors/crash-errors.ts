/**
 * Errors of runs that killed what ran them (docs/run-failures.md): a run whose worker process died is retaken once, in
 * a quarantine thread with resource limits; if that attempt dies too, the run ends with one of these errors.
 */
import { MthdsError, type MthdsErrorOptions } from './mthds-error.js';

/**
 * 500 (never retryable): the run's execution died instead of finishing — its quarantine thread ran out of memory,
 * exited, crashed or outlived `RUN_QUARANTINE_TIMEOUT_MS`, or its worker process died during the first attempt and
 * again during the retake. The message names what happened and the limit involved. The run is not retried, because
 * running it again would risk another worker.
 * @see docs/run-failures.md
 */
export class RunCrashedError extends MthdsError {
  /**
   * @param message - what died and which limit (with its setting name) was reached
   * @param options - the usual error options; `retryable` is forced to false
   */
  constructor(message: string, options: MthdsErrorOptions = {}) {
    super(message, { ...options, retryable: false });
  }
}
