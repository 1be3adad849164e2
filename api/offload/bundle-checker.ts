/**
 * The run bundle checker of the API (docs/isolation.md "Diagnostics pool"): the diagnostics pool loads and statically
 * validates a run's bundles (a verdict that takes seconds on the largest legal bundle); the caller's thread only
 * rebuilds the library from the checked bundles, without parsing the texts or re-running the rules.
 *
 * @see spec §4.3
 */
import { buildLibrary } from '../../shared/mthds/index.js';
import type { RunBundleChecker } from '../../shared/orchestration/index.js';
import type { DiagnosticsPool } from './diagnostics-pool.js';

/**
 * The orchestrators' bundle checker, backed by the diagnostics pool.
 * @param diagnostics - the diagnostics pool
 * @returns a checker whose errors are the threads' own, rebuilt with their exact problem documents:
 *   ValidateBundleError (422) with every validation item, PipeNotFoundError (422) when no pipe is selected;
 *   ServerBusyError (503) and ComputeBudgetExceededError (422) from the pool
 */
export function diagnosticsBundleChecker(diagnostics: DiagnosticsPool): RunBundleChecker {
  return {
    async check(run) {
      await diagnostics.run('checkRun', { sources: run.sources, pipeCode: run.pipeCode });
    },
    async load(run, signal) {
      return buildLibrary(await diagnostics.run('loadRun', { sources: run.sources, pipeCode: run.pipeCode }, signal));
    },
  };
}
