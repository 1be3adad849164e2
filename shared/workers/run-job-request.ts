/**
 * The runtime's view of a run job: the bundle run request and the library files a job payload carries. Shared by the
 * in-process run and the quarantine thread, so both run exactly the same request.
 */
import { LibraryFiles } from '../bundles/index.js';
import type { RunJob } from '../queue/index.js';
import type { BundleRunRequest } from '../runtime/index.js';

/** A run job as the runtime takes it. */
export interface RunJobRequest {
  request: BundleRunRequest;
  /** The `bundle_b64` / `files` library files, when the job has any. */
  libraryFiles?: LibraryFiles;
}

/**
 * Translate a validated job payload.
 * @param payload - a payload parsed with `RUN_JOB`
 * @returns the run request and its library files
 */
export function runJobRequest(payload: RunJob): RunJobRequest {
  return {
    request: {
      sources: payload.sources,
      pipeCode: payload.pipe_code,
      inputs: payload.inputs,
      outputName: payload.output_name,
      outputMultiplicity: payload.output_multiplicity,
      dynamicOutputConceptRef: payload.dynamic_output_concept_ref,
      pipelineRunId: payload.pipeline_run_id,
    },
    ...(payload.library_files ? { libraryFiles: LibraryFiles.fromPayload(payload.library_files) } : {}),
  };
}
