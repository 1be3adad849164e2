/**
 * The run submission (spec §2.2–2.4): a run as the API accepts it, whatever orchestrator takes it. Its two mappings
 * live here and nowhere else: into the job payload a queue carries (and back, in the worker), and into the runtime's
 * bundle run request.
 */
import { LibraryFiles } from '../bundles/index.js';
import type { MethodProvenance } from '../methods/index.js';
import type { BundleSource } from '../mthds/index.js';
import type { BundleRunRequest } from '../runtime/index.js';
import type { RunJob } from './queue/index.js';

/** A run as the API hands it to an orchestrator: validated request fields plus correlation facts. */
export interface RunSubmission {
  sources: BundleSource[];
  /** Library files of a `bundle_b64` / `files` bundle (documents may name them by path). */
  libraryFiles?: LibraryFiles;
  pipeCode: string | null;
  inputs: unknown;
  outputName: string | null;
  outputMultiplicity: boolean | number | null;
  dynamicOutputConceptRef: string | null;
  pipelineRunId: string;
  requestId: string;
  /** The caller's own id, owner of the run (docs/run-ownership.md). */
  owner: string;
  /** The effective `storage_scope`: as requested, else the owner's id (spec §2.3). */
  storageScope: string;
  callbackUrls: string[];
  /** Where a `method_ref` run's bundles came from; null for inline runs (spec §2.2). */
  methodProvenance: MethodProvenance | null;
}

/** What the runtime runs for a submission: the bundle run request and the library files documents may name. */
export interface RuntimeRun {
  request: BundleRunRequest;
  libraryFiles?: LibraryFiles;
}

/**
 * The job payload of a submission, for the run queue.
 * @param submission - the run
 * @param createdAt - when the run was accepted, epoch ms
 * @returns the plain-JSON payload (`RUN_JOB`)
 */
export function toRunJob(submission: RunSubmission, createdAt: number): RunJob {
  return {
    pipeline_run_id: submission.pipelineRunId,
    request_id: submission.requestId,
    owner: submission.owner,
    sources: submission.sources,
    pipe_code: submission.pipeCode,
    inputs: submission.inputs ?? null,
    output_name: submission.outputName,
    output_multiplicity: submission.outputMultiplicity,
    dynamic_output_concept_ref: submission.dynamicOutputConceptRef,
    storage_scope: submission.storageScope,
    callback_urls: submission.callbackUrls,
    ...(submission.libraryFiles ? { library_files: submission.libraryFiles.toPayload() } : {}),
    method_provenance: submission.methodProvenance,
    created_at: createdAt,
  };
}

/**
 * The submission a job payload carries (the inverse of {@link toRunJob}).
 * @param job - a payload validated with `RUN_JOB`
 */
export function submissionOfJob(job: RunJob): RunSubmission {
  return {
    sources: job.sources,
    ...(job.library_files ? { libraryFiles: LibraryFiles.fromPayload(job.library_files) } : {}),
    pipeCode: job.pipe_code,
    inputs: job.inputs,
    outputName: job.output_name,
    outputMultiplicity: job.output_multiplicity,
    dynamicOutputConceptRef: job.dynamic_output_concept_ref,
    pipelineRunId: job.pipeline_run_id,
    requestId: job.request_id,
    owner: job.owner,
    storageScope: job.storage_scope,
    callbackUrls: job.callback_urls,
    methodProvenance: job.method_provenance,
  };
}

/**
 * What the runtime runs for a submission.
 * @param submission - the run
 */
export function runtimeRun(submission: RunSubmission): RuntimeRun {
  return {
    request: {
      sources: submission.sources,
      pipeCode: submission.pipeCode,
      inputs: submission.inputs,
      outputName: submission.outputName,
      outputMultiplicity: submission.outputMultiplicity,
      dynamicOutputConceptRef: submission.dynamicOutputConceptRef,
      pipelineRunId: submission.pipelineRunId,
    },
    ...(submission.libraryFiles ? { libraryFiles: submission.libraryFiles } : {}),
  };
}
