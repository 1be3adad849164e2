/**
 * A run stopped before its end (docs/cancellation.md): cancelled by its owner, or stopped at its deadline
 * (`timeout_seconds`). The stop is the run's end, recorded once like any other; its error is the reason every piece of
 * the run still in flight is aborted with, so whoever holds one can tell a stop from a failure.
 */
import { MthdsError, RunCancelledError, RunTimedOutError } from '../../errors/index.js';

/** How a stopped run ended. */
export type RunStopState = 'CANCELLED' | 'TIMED_OUT';

/**
 * One submission of a run id: a run id reused by a later submission is another run, which a stop of the earlier one
 * never touches.
 */
export interface RunRef {
  pipelineRunId: string;
  requestId: string;
  /** When the run was accepted, epoch ms. */
  createdAt: number;
}

/**
 * The error of a stop: the error report a stopped run keeps, and the reason its pieces in flight are aborted with.
 * @param state - how the run ended
 * @param runId - the `pipeline_run_id`
 */
export function runStopError(state: RunStopState, runId: string): RunCancelledError | RunTimedOutError {
  return state === 'CANCELLED'
    ? new RunCancelledError(`Run '${runId}' was cancelled by its owner before it ended.`, { retryable: false })
    : new RunTimedOutError(
        `Run '${runId}' did not end within the timeout_seconds of its request and was stopped at its deadline.`,
        { retryable: false },
      );
}

/**
 * The stop an error stands for.
 * @param thrown - anything thrown, or an abort signal's reason (an error rebuilt from a report included)
 * @returns `CANCELLED` for a {@link RunCancelledError}, `TIMED_OUT` for a {@link RunTimedOutError}, else undefined
 */
export function stopStateOf(thrown: unknown): RunStopState | undefined {
  if (!(thrown instanceof MthdsError)) return undefined;
  if (thrown.error_type === 'RunCancelledError') return 'CANCELLED';
  return thrown.error_type === 'RunTimedOutError' ? 'TIMED_OUT' : undefined;
}

/**
 * Whether a run state is a stop.
 * @param state - a run state
 */
export function isStopState(state: string): state is RunStopState {
  return state === 'CANCELLED' || state === 'TIMED_OUT';
}
