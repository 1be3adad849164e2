/**
 * The library of a run, checked off the event loop (docs/isolation.md "Diagnostics pool"): the diagnostics pool
 * loads and statically validates the bundles (a verdict that takes seconds on the largest legal bundle); the caller's
 * thread only rebuilds the library from the checked bundles, without parsing the texts or re-running the rules.
 *
 * @see spec §4.3
 */
import { buildLibrary, type BundleSource, type Library } from '../../shared/mthds/index.js';
import type { DiagnosticsPool } from './diagnostics-pool.js';

/**
 * Check a run's bundles in the pool and build its library here.
 * @param diagnostics - the diagnostics pool
 * @param run - the run's bundles and `pipe_code`
 * @param signal - aborts the check (the client went away)
 * @returns the run's validated library
 * @throws ValidateBundleError (422) with every validation item, PipeNotFoundError (422) when no pipe is selected
 *   (both rebuilt from the thread with their exact problem document); ServerBusyError (503) and
 *   ComputeBudgetExceededError (422) from the pool
 */
export async function checkedRunLibrary(diagnostics: DiagnosticsPool, run: { sources: BundleSource[]; pipeCode: string | null }, signal?: AbortSignal): Promise<Library> {
  return buildLibrary(await diagnostics.run('loadRun', { sources: run.sources, pipeCode: run.pipeCode }, signal));
}
