/**
 * The admission check of a run, in a diagnostics thread, before it runs or is queued (spec §4.3–4.4): its bundles
 * load as one valid library and name a pipe to run, and its inputs bind to that pipe as the run will bind them
 * (`bundle-checker.ts` asks for it through `thread-operations.ts`).
 */
import type {
  BundleSource,
  Library,
  LoadedBundle,
  ModelReferenceCatalog,
  PackageExports,
} from '../../shared/mthds/index.js';
import { checkRunInputs, loadRunLibrary, selectRunPipe } from '../../shared/runtime/index.js';

/** Input of the run check: the bundles of a run, its pipe selector and its inputs. */
export interface RunCheckInput {
  sources: BundleSource[];
  pipeCode: string | null;
  /** The request's `inputs`, as received. */
  inputs: unknown;
  /** The serving model deck's names (unknown `model` references are errors); unchecked when absent. */
  models?: ModelReferenceCatalog;
  /** The paths of the files sent beside the bundles, or null for bundles sent as text (PipeDocGen `template_file`). */
  bundleFiles?: string[] | null;
  /** A `method_ref` run's fetched `[exports]` (unexported cross-package references are errors); else absent. */
  exports?: PackageExports;
}

/**
 * The checked library of a run.
 * @param input - the run's bundles, `pipe_code` and inputs
 * @throws ValidateBundleError (422) with every validation item; PipeNotFoundError (422) when no pipe is selected;
 *   StuffFactoryError, ConceptNotFoundError, ConceptAmbiguityError, PipeInputError (422) for inputs the pipe refuses
 */
function checkedRun(input: RunCheckInput): Library {
  const library = loadRunLibrary(input.sources, input.models, input.bundleFiles, input.exports);
  checkRunInputs(library, selectRunPipe(library, input.pipeCode), input.inputs);
  return library;
}

/** The run check, answering nothing; throws as {@link checkedRun}. */
export function checkRunOperation(input: RunCheckInput): void {
  checkedRun(input);
}

/**
 * The run check, answering the checked bundles (plain data), from which the caller builds the run library
 * (`buildLibrary`) without parsing the texts or re-running the rules; throws as {@link checkedRun}.
 */
export function loadRunOperation(input: RunCheckInput): LoadedBundle[] {
  return [...checkedRun(input).bundles];
}
