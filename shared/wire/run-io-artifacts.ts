/**
 * The I/O artifacts of a finished run (docs/api.md#run-results): the contract, the input form and the output form of
 * every pipe of the library the run ran in, in the shapes `/v1/validate`'s valid report gives them
 * (docs/api.md#valid-report). Built once, when the run finishes, and kept with its record, so a results read only
 * copies them.
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
 * Build the I/O artifacts of a run's library. A failure of a builder never fails the run: the three are then null and
 * `pipe_io_artifacts_error` says why.
 * @param library - the library the run ran in
 * @returns the artifacts, or their absence with the reason; never throws
 */
export function runIOArtifacts(library: Library): RunIOArtifacts {
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
