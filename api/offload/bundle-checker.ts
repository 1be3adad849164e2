/**
 * The run bundle checker of the API (docs/isolation.md "Diagnostics pool"): the diagnostics pool loads and statically
 * validates a run's bundles (a verdict that takes seconds on the largest legal bundle); the caller's thread only
 * rebuilds the library from the checked bundles, without parsing the texts or re-running the rules. Bundles of at most
 * {@link INLINE_CHECK_MAX_CHARS} characters in all are checked on the calling thread: validation is linear in the
 * text, so their verdict costs less than the hand-off to a thread and back.
 *
 * @see spec §4.3
 */
import { buildLibrary, type Library } from '../../shared/mthds/index.js';
import type { RunBundleChecker, RunSubmission } from '../../shared/orchestration/index.js';
import { loadRunLibrary, selectRunPipe } from '../../shared/runtime/index.js';
import type { DiagnosticsPool } from './diagnostics-pool.js';

/** Largest total of bundle text, in characters, whose static check runs on the calling thread (16 Ki). */
const INLINE_CHECK_MAX_CHARS = 16 * 1024;

function small(sources: readonly { content: string }[]): boolean {
  let total = 0;
  for (const { content } of sources) total += content.length;
  return total <= INLINE_CHECK_MAX_CHARS;
}

/** Load and check a run's bundles on the calling thread (what the thread operations do). */
function checkedLibrary(run: Pick<RunSubmission, 'sources' | 'pipeCode'>): Library {
  const library = loadRunLibrary(run.sources);
  selectRunPipe(library, run.pipeCode);
  return library;
}

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
      if (small(run.sources)) checkedLibrary(run);
      else await diagnostics.run('checkRun', { sources: run.sources, pipeCode: run.pipeCode });
    },
    async load(run, signal) {
      if (small(run.sources)) return checkedLibrary(run);
      return buildLibrary(await diagnostics.run('loadRun', { sources: run.sources, pipeCode: run.pipeCode }, signal));
    },
  };
}
