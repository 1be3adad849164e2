/**
 * The orchestrator port (spec §1.1): where a top-level run goes. `direct` runs in this process; `bullmq`
 * enqueues on Redis for workers. Delivery is set by the route: `/v1/execute` blocks, `/v1/start` fires and forgets
 * and needs an orchestrator that can.
 */
import type { MethodProvenance } from '../methods/index.js';
import type { BundleSource, Library, PackageExports } from '../mthds/index.js';
import type { RunResult } from '../wire/index.js';
import type { RunRecord } from './registry/index.js';
import type { RunSubmission } from './submission.js';

/** The 202 acknowledgement of `/v1/start` (docs/api.md#post-v1start; spec §2.4). */
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
  /** The fetch's provenance on a `method_ref` run, null otherwise (docs/api.md#post-v1start). */
  method_provenance: MethodProvenance | null;
}

/**
 * The acknowledgement of a run just accepted for asynchronous execution.
 * @param record - its accepted record (`pipeline_run_id`, `created_at`, `workflow_id`)
 * @param methodProvenance - a `method_ref` run's provenance, else null
 */
export function startAcknowledgement(
  record: Pick<RunRecord, 'pipeline_run_id' | 'created_at' | 'workflow_id'>,
  methodProvenance: MethodProvenance | null,
): StartAcknowledgement {
  return {
    pipeline_run_id: record.pipeline_run_id,
    created_at: record.created_at,
    state: 'STARTED',
    pipeline_state: 'STARTED',
    finished_at: null,
    workflow_id: record.workflow_id,
    main_stuff_name: null,
    pipe_output: null,
    pipe_structures: null,
    method_provenance: methodProvenance,
  };
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

/** What a run check reads: the run's bundles, its pipe selector and its inputs. */
export interface RunCheckRequest {
  sources: BundleSource[];
  pipeCode: string | null;
  /** The request's `inputs`, as received. */
  inputs: unknown;
  /** The files sent beside the bundles (zip, file map, method_ref clone); absent for bundles sent as text. */
  libraryFiles?: { paths(): string[] };
  /** A `method_ref` run's fetched `[exports]` (unexported cross-package references are refused); else absent. */
  packageExports?: PackageExports;
}

/**
 * Where a run is checked before it runs or is queued — its bundles loaded and statically validated, its pipe selected,
 * its inputs bound to that pipe as the run will bind them — in the API's diagnostics threads, off the event loop
 * (docs/isolation.md#diagnostics-pool). `/v1/start` and `/v1/execute` refuse alike what fails it (spec §4.3–4.4).
 */
export interface RunBundleChecker {
  /**
   * Check the run.
   * @param run - the run's bundles, `pipe_code` and inputs
   * @throws ValidateBundleError (422) with every validation item; PipeNotFoundError (422) when no pipe is selected;
   *   StuffFactoryError, ConceptNotFoundError, ConceptAmbiguityError, PipeInputError (422) for inputs the pipe
   *   refuses; the checker's own capacity errors (e.g. ServerBusyError 503)
   */
  check(run: RunCheckRequest): Promise<void>;
  /**
   * Check the run and build its library in the caller's thread.
   * @param run - the run's bundles, `pipe_code` and inputs
   * @param signal - aborts the check (the client went away)
   * @returns the validated library
   * @throws as {@link RunBundleChecker.check}
   */
  load(run: RunCheckRequest, signal?: AbortSignal): Promise<Library>;
}
