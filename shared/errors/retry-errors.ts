/**
 * Errors of retrying a run (`POST /v1/runs/{id}/retry`; docs/checkpoints.md#retrying-a-run). Both are authored at the
 * edge of the API: `error_domain: "input"`, `retryable: false`.
 */
import { MthdsError } from './mthds-error.js';

/**
 * 409: the run is not in a state a retry starts from — only a `FAILED`, `CANCELLED` or `TIMED_OUT` run is retried
 * (code `run_not_retryable`). The problem document carries the run's state under `run_state`.
 */
export class RunNotRetryableError extends MthdsError {
  /**
   * @param message - the detail, naming the run and its state
   * @param runState - the run's state (`COMPLETED`, `RUNNING`, …), rendered as `run_state`
   */
  constructor(
    message: string,
    private readonly runState: string,
  ) {
    super(message);
  }

  override wireExtensions(): Record<string, unknown> {
    return { run_state: this.runState };
  }
}

/**
 * 410: the run ended unsuccessfully but what it was sent is no longer kept for a retry: past
 * `STORAGE_RETENTION_PAYLOADS_HOURS`, or a run that never went through the queue (code `run_submission_unavailable`).
 */
export class RunSubmissionUnavailableError extends MthdsError {}
