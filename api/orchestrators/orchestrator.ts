/**
 * The orchestrator port of the API (spec §1.1): where a top-level run goes. `direct` runs in this process; `bullmq`
 * enqueues on Redis for workers. Delivery is set by the route: `/v1/execute` blocks, `/v1/start` fires and forgets
 * and needs an orchestrator that can.
 */
import type { LibraryFiles } from '../../shared/bundles/index.js';
import type { MethodProvenance } from '../../shared/methods/index.js';
import type { BundleSource } from '../../shared/mthds/index.js';
import type { RunResult } from '../../shared/runtime/index.js';

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
  /** Where a `method_ref` run's bundles came from; null or absent for inline runs (spec §2.2). */
  methodProvenance: MethodProvenance | null;
}

/** The 202 acknowledgement of `/v1/start` (API-CONTRACT.md §3.6; spec §2.4). */
export interface StartAcknowledgement {
  pipeline_run_id: string;
  created_at: string;
  state: 'STARTED';
  pipeline_state: 'STARTED';
  finished_at: null;
  workflow_id: string | null;
  main_stuff_name: null;
  pipe_output: null;
  pipe_structures: null;
  /** The fetch's provenance on a `method_ref` run, null otherwise (API-CONTRACT.md §3.6). */
  method_provenance: MethodProvenance | null;
}

/** A backend a run can be dispatched to. */
export interface Orchestrator {
  /** The orchestration mode token it serves. */
  readonly mode: string;
  /**
   * Run to completion (BLOCKING delivery).
   * @throws ValidateBundleError (422) and any run error, as problem-renderable errors
   */
  execute(submission: RunSubmission, signal: AbortSignal): Promise<RunResult>;
  /**
   * Accept a run for asynchronous execution (FIRE_AND_FORGET). Absent on blocking-only orchestrators.
   * @throws PipelineManagerAlreadyExistsError (409) for the caller's own run still in flight, PipelineRunIdTakenError
   *   (409) for an id another caller's run holds, ValidateBundleError (422), QueueUnavailableError (503)
   */
  start?(submission: RunSubmission): Promise<StartAcknowledgement>;
}
