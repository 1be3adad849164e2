/**
 * Bodies of completion callbacks (spec §6 rules 1, 4, 5): on success the run result plus `status`; on failure the raw
 * error report under `error` with `pipeline_run_id`, `state` and `status` — no problem-document envelope.
 */
import type { ErrorReport } from '../../errors/index.js';
import type { RunResult } from '../../wire/index.js';

/**
 * Body of a successful run's callback.
 * @param result - the run result
 */
export function successPayload(result: RunResult): string {
  return JSON.stringify({ ...result, status: result.state });
}

/**
 * Body of a failed run's callback.
 * @param runId - the `pipeline_run_id`
 * @param error - the error report
 */
export function failurePayload(runId: string, error: ErrorReport): string {
  return JSON.stringify({ pipeline_run_id: runId, state: 'FAILED', status: 'FAILED', error });
}
