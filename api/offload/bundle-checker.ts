/**
 * The run bundle checker of the API (docs/isolation.md#diagnostics-pool): the diagnostics pool loads and statically
 * validates a run's bundles (a verdict that takes seconds on the largest legal bundle) and checks its inputs against
 * the selected pipe, as the run will bind them; the caller's thread only
 * rebuilds the library from the checked bundles, without parsing the texts or re-running the rules. Bundles of at most
 * {@link INLINE_CHECK_MAX_CHARS} characters in all are checked on the calling thread: validation is linear in the
 * text, so their verdict costs less than the hand-off to a thread and back.
 *
 * @see spec §4.3
 */
import { buildLibrary, type Library, type ModelReferenceCatalog } from '../../shared/mthds/index.js';
import type { RunBundleChecker, RunCheckRequest } from '../../shared/orchestration/index.js';
import { checkRunInputs, loadRunLibrary, selectRunPipe } from '../../shared/runtime/index.js';
import type { DiagnosticsPool } from './diagnostics-pool.js';
import type { RunCheckInput } from './run-check.js';

/** Largest total of bundle text, in characters, whose static check runs on the calling thread (16 Ki). */
const INLINE_CHECK_MAX_CHARS = 16 * 1024;

function small(sources: readonly { content: string }[]): boolean {
  let total = 0;
  for (const { content } of sources) total += content.length;
  return total <= INLINE_CHECK_MAX_CHARS;
}

/** Check a run on the calling thread (what the thread operations do). */
function checkedLibrary(run: RunCheckRequest, models: ModelReferenceCatalog | undefined): Library {
  const library = loadRunLibrary(run.sources, models, bundleFilesOf(run), run.packageExports);
  checkRunInputs(library, selectRunPipe(library, run.pipeCode), run.inputs);
  return library;
}

/** The paths of the files sent beside a run's bundles, or null for bundles sent as text. */
function bundleFilesOf(run: RunCheckRequest): string[] | null {
  return run.libraryFiles ? run.libraryFiles.paths() : null;
}

/** The thread operations' input: exactly the check's fields (a submission carries more than a thread needs). */
function checkInput(run: RunCheckRequest, models: ModelReferenceCatalog | undefined): RunCheckInput {
  return {
    sources: run.sources,
    pipeCode: run.pipeCode,
    inputs: run.inputs,
    bundleFiles: bundleFilesOf(run),
    ...(run.packageExports ? { exports: run.packageExports } : {}),
    ...(models ? { models } : {}),
  };
}

/**
 * The orchestrators' bundle checker, backed by the diagnostics pool.
 * @param diagnostics - the diagnostics pool
 * @param models - the serving model deck's names: a run naming an unknown `$preset`, `@alias` or `~waterfall` is
 *   refused with the validation item `/v1/validate` reports (unchecked when absent)
 * @returns a checker whose errors are the threads' own, rebuilt with their exact problem documents:
 *   ValidateBundleError (422) with every validation item, PipeNotFoundError (422) when no pipe is selected, the input
 *   errors (422: StuffFactoryError, ConceptNotFoundError, ConceptAmbiguityError, PipeInputError);
 *   ServerBusyError (503) and ComputeBudgetExceededError (422) from the pool
 */
export function diagnosticsBundleChecker(
  diagnostics: DiagnosticsPool,
  models?: ModelReferenceCatalog,
): RunBundleChecker {
  return {
    async check(run) {
      if (small(run.sources)) checkedLibrary(run, models);
      else await diagnostics.run('checkRun', checkInput(run, models));
    },
    async load(run, signal) {
      if (small(run.sources)) return checkedLibrary(run, models);
      return buildLibrary(await diagnostics.run('loadRun', checkInput(run, models), signal));
    },
  };
}
