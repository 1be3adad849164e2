/**
 * Errors of runs stopped before their end (docs/cancellation.md): a run its owner cancelled, a run past its
 * `timeout_seconds`, and a cancel of a run that had already ended. A stopped run keeps the report of its stop as its
 * error report (`state` `CANCELLED` or `TIMED_OUT`), and a blocking `/v1/execute` whose run was stopped answers it.
 */
import { MthdsError } from './mthds-error.js';

/**
 * 409: the run was cancelled by its owner (`POST /v1/runs/{id}/cancel` or the bulk cancel) before it ended (code
 * `run_cancelled`; `retryable: false`).
 */
export class RunCancelledError extends MthdsError {}

/**
 * 504: the run did not end by its deadline — its acceptance time plus the `timeout_seconds` of its request — and was
 * stopped (code `run_timed_out`; `retryable: false`).
 */
export class RunTimedOutError extends MthdsError {}

/**
 * 409: a cancel of a run that has already ended (code `run_already_finished`): nothing was changed. The problem
 * document carries the run's lifecycle status under `run_status`.
 */
export class RunAlreadyFinishedError extends MthdsError {
  /**
   * @param message - the detail, naming the run and its status
   * @param runStatus - the run's lifecycle status (`COMPLETED`, `FAILED`, `CANCELLED`, `TIMED_OUT`), rendered as
   *   `run_status`
   */
  constructor(
    message: string,
    private readonly runStatus: string,
  ) {
    super(message);
  }

  override wireExtensions(): Record<string, unknown> {
    return { run_status: this.runStatus };
  }
}
