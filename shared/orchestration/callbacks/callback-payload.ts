/**
 * Bodies of completion callbacks (spec §6 rules 1, 4, 5): on success the run result plus `status` (its `usage`
 * included);
 * on failure (or a stop: `CANCELLED`, `TIMED_OUT`) the raw error report under `error` with `pipeline_run_id`, `state`,
 * `status` and the run's `usage` — no problem-document envelope.
 */
import type { ErrorReport } from '../../errors/index.js';
import type { RunResult, RunUsageReport } from '../../wire/index.js';

/**
 * Body of a successful run's callback.
 * @param result - the run result
 */
export function successPayload(result: RunResult): string {
  // not `{ ...result, status }` (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path)
  return JSON.stringify(Object.assign({}, result, { status: result.state }));
}

/**
 * Body of the callback of a run that ended without a result: failed, or stopped (docs/cancellation.md).
 * @param runId - the `pipeline_run_id`
 * @param error - the error report (a stopped run's is its stop's: `RunCancelledError`, `RunTimedOutError`)
 * @param usage - the usage and cost of the run's last attempt (docs/run-events.md#usage-and-cost), null when unknown
 * @param state - how the run ended, sent as `state` and `status`: `FAILED` unless said
 */
export function failurePayload(
  runId: string,
  error: ErrorReport,
  usage: RunUsageReport | null,
  state: 'FAILED' | 'CANCELLED' | 'TIMED_OUT' = 'FAILED',
): string {
  return JSON.stringify({ pipeline_run_id: runId, state, status: state, error, usage });
}
