/**
 * Runs a caller error refused or ended (an invalid bundle, a missing input, a taken run id: a 4xx other than 429) are
 * counted in `mthds_runs_rejected_total`, apart from the runs that failed on the server's or a provider's side
 * (`mthds_runs_finished_total{state="FAILED"}`), so an alert on failed runs never fires for callers' mistakes
 * (docs/metrics.md).
 */
import { isCallerFault, toMthdsError } from '../errors/index.js';
import type { Metrics } from '../observability/index.js';

/**
 * Count an error in `mthds_runs_rejected_total` when the caller is at fault for it.
 * @param metrics - the process metrics
 * @param mode - the orchestration mode (`direct`, `bullmq`)
 * @param error - what refused or ended the run
 * @returns true when it was counted (a caller error), false otherwise (the caller counts the failure if it must)
 */
export function countRejection(metrics: Metrics, mode: string, error: unknown): boolean {
  if (!isCallerFault(error)) return false;
  metrics.runsRejected.inc({ mode, error_type: toMthdsError(error).error_type });
  return true;
}

/**
 * Run a step that may refuse a run before it starts, counting a caller error it throws as a rejection.
 * @param metrics - the process metrics
 * @param mode - the orchestration mode
 * @param step - the check (bundle, run id claim)
 * @returns what the step returns
 * @throws whatever the step throws, after counting it when the caller is at fault
 */
export async function countingRejections<T>(metrics: Metrics, mode: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    countRejection(metrics, mode, error);
    throw error;
  }
}
