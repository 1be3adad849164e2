/**
 * The I/O artifacts of a finished run (docs/api.md#run-results): the contract, the input form and the output form of
 * every pipe of the library the run ran in, in the shapes `/v1/validate`'s valid report gives them
 * (docs/api.md#valid-report). Built once per library (on its first run to finish) and kept with each run's record, so
 * a results read only copies them.
 */
import type { Library } from '../mthds/index.js';
import {
  inputForms,
  outputForms,
  type PipeInputFormDescriptor,
  type PipeOutputFormDescriptor,
} from './form-descriptors.js';
import { type PipeIOContract, pipeIOContracts } from './validation-report.js';

/** The three I/O artifacts of a run, keyed by qualified pipe ref; all three null with the reason when not built. */
export interface RunIOArtifacts {
  pipe_io_contracts: Record<string, PipeIOContract> | null;
  input_form: Record<string, PipeInputFormDescriptor> | null;
  output_form: Record<string, PipeOutputFormDescriptor> | null;
  /** Why the three are null; null when they were built. */
  pipe_io_artifacts_error: string | null;
}

/**
 * The I/O artifacts standing for a build that did not happen.
 * @param reason - why, as `pipe_io_artifacts_error` says it
 */
export function missingRunIOArtifacts(reason: string): RunIOArtifacts {
  return { pipe_io_contracts: null, input_form: null, output_form: null, pipe_io_artifacts_error: reason };
}

/**
 * The artifacts of the libraries built so far. A library is immutable once built, and the runs of the same sources
 * share it (`shared/runtime/run-library-cache.ts`), so its artifacts are built once and shared by those runs.
 */
const builtArtifacts = new WeakMap<Library, RunIOArtifacts>();

/**
 * The I/O artifacts of a run's library, built on the library's first run and shared by its later ones (which only
 * serialise them: the object is never changed). A failure of a builder never fails the run: the three are then null
 * and `pipe_io_artifacts_error` says why.
 * @param library - the library the run ran in
 * @returns the artifacts, or their absence with the reason; never throws
 */
export function runIOArtifacts(library: Library): RunIOArtifacts {
  let artifacts = builtArtifacts.get(library);
  if (!artifacts) {
    artifacts = buildRunIOArtifacts(library);
    builtArtifacts.set(library, artifacts);
  }
  return artifacts;
}

function buildRunIOArtifacts(library: Library): RunIOArtifacts {
  try {
    return {
      pipe_io_contracts: pipeIOContracts(library),
      input_form: inputForms(library),
      output_form: outputForms(library),
      pipe_io_artifacts_error: null,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return missingRunIOArtifacts(`The I/O artifacts of the run could not be built: ${message}`);
  }
}
