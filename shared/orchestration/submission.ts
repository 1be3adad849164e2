/**
 * The run submission (spec §2.2–2.4): a run as the API accepts it, whatever orchestrator takes it. Its mappings live
 * here and nowhere else: into the job payload a queue carries (and back, in the worker), and into the runtime's
 * bundle run, whose outcome is rendered as the run result.
 */

import { createHash } from 'node:crypto';
import { LibraryFiles } from '../bundles/index.js';
import { createDocumentPrinter } from '../docgen/index.js';
import { type RateTenant, tenantInference } from '../inference/index.js';
import type { MethodProvenance } from '../methods/index.js';
import type { BundleSource, Library, PackageExports } from '../mthds/index.js';
import { activeTraceId } from '../observability/index.js';
import {
  type ChildRunResult,
  type FanOutChild,
  loadRunLibrary,
  type RuntimeDeps,
  runBundle,
  runChildPipeline,
} from '../runtime/index.js';
import {
  completedRunResult,
  missingRunIOArtifacts,
  type RunIOArtifacts,
  type RunResult,
  runIOArtifacts,
  withProvenance,
} from '../wire/index.js';
import { runDeadline } from './control/run-deadline.js';
import type { QueuedRunJob, RunHistoryFacts, RunJob } from './queue/index.js';
import type { RunRecord } from './registry/index.js';
import type { RunSubmissionSnapshot } from './storage/index.js';

/** The document printer of every run that is not given one (PipeDocGen; it holds no state). */
const DOCUMENT_PRINTER = createDocumentPrinter();

/**
 * The stored method a run belongs to (docs/methods.md#method_id): the catalog's `mt_…` id and the published version that
 * ran, or null when the run used the draft or inline sources only linked to the method.
 */
export interface MethodLink {
  methodId: string;
  version: number | null;
}

/** A run as the API hands it to an orchestrator: validated request fields plus correlation facts. */
export interface RunSubmission {
  sources: BundleSource[];
  /** Library files of a `bundle_b64` / `files` bundle (documents may name them by path). */
  libraryFiles?: LibraryFiles;
  /** A `method_ref` run's fetched `[exports]`, checked before the run is accepted (not carried to the worker). */
  packageExports?: PackageExports;
  pipeCode: string | null;
  inputs: unknown;
  outputName: string | null;
  outputMultiplicity: boolean | number | null;
  dynamicOutputConceptRef: string | null;
  pipelineRunId: string;
  /**
   * The run id was generated for this run (the caller named none): no earlier run holds it, so no earlier job of the
   * same id is looked for when it is queued.
   */
  runIdGenerated?: boolean;
  requestId: string;
  /** The caller's own id, owner of the run (docs/run-ownership.md). */
  owner: string;
  /** The effective `storage_scope`: as requested, else the owner's id (spec §2.3). */
  storageScope: string;
  callbackUrls: string[];
  /** Where a `method_ref` run's bundles came from; null for inline runs (spec §2.2). */
  methodProvenance: MethodProvenance | null;
  /** The run's budget in USD (`max_cost_usd`, docs/inference.md#run-budget); none when absent or null. */
  maxCostUsd?: number | null;
  /** The stored method the run runs or is linked to (`method_id`); none for a run of inline sources alone. */
  methodLink?: MethodLink | null;
  /** The run's `priority` in the run queue (0–10, higher first; docs/fair-dispatch.md#priorities); none: 5. */
  priority?: number;
  /**
   * The organization whose share of the provider rate limits the run's inference calls count against
   * (docs/inference.md#organization-shares); none for a run of no organization (not capped).
   */
  rateTenant?: RateTenant;
  /**
   * The run's `timeout_seconds`: it is stopped `TIMED_OUT` that long after it was accepted
   * (docs/cancellation.md#deadlines); none when absent or null.
   */
  timeoutSeconds?: number | null;
}

/** The digests of the source lists of the submissions in hand: a start records and queues its run with one digest. */
const sourceDigests = new WeakMap<readonly BundleSource[], string>();

/**
 * The SHA-256 (hex) of a run's bundle texts, in order, each length-prefixed (so no two lists of texts share it): what
 * the history keeps to tell runs of the same sources (docs/control-plane.md#run-history). Computed once per list.
 * @param sources - the run's bundles
 */
function sourceDigest(sources: readonly BundleSource[]): string {
  let digest = sourceDigests.get(sources);
  if (digest === undefined) {
    const hash = createHash('sha256');
    for (const source of sources) hash.update(`${Buffer.byteLength(source.content)}:`).update(source.content);
    digest = hash.digest('hex');
    sourceDigests.set(sources, digest);
  }
  return digest;
}

/**
 * What the history keeps of a submission beyond its state: its method link and source digest.
 * @param submission - the run
 */
export function historyFacts(submission: Pick<RunSubmission, 'sources' | 'methodLink'>): RunHistoryFacts {
  const link = submission.methodLink;
  return {
    ...(link ? { method_id: link.methodId } : {}),
    ...(link?.version ? { method_version: link.version } : {}),
    source_digest: sourceDigest(submission.sources),
  };
}

/**
 * The job payload of a submission, for the run queue.
 * @param submission - the run
 * @param createdAt - when the run was accepted, epoch ms
 * @param options - `keepSubmission`: the worker keeps the run as sent, for its history
 * @returns the plain-JSON payload (`RUN_JOB`)
 */
export function toRunJob(
  submission: RunSubmission,
  createdAt: number,
  options: { keepSubmission?: boolean } = {},
): RunJob {
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
    ...(submission.maxCostUsd ? { max_cost_usd: submission.maxCostUsd } : {}),
    ...(submission.rateTenant ? { rate_tenant: submission.rateTenant } : {}),
    created_at: createdAt,
    ...(submission.timeoutSeconds ? { deadline_at: runDeadline(createdAt, submission.timeoutSeconds) } : {}),
    history: Object.assign(historyFacts(submission), options.keepSubmission ? { keep_submission: true } : {}),
  };
}

/**
 * A submission as it was sent, as the run history keeps it (docs/control-plane.md#run-history).
 * @param submission - the run
 */
export function submissionSnapshot(submission: Pick<RunSubmission, 'sources' | 'inputs'>): RunSubmissionSnapshot {
  return { mthds_contents: submission.sources.map((source) => source.content), inputs: submission.inputs ?? null };
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
    ...(job.max_cost_usd ? { maxCostUsd: job.max_cost_usd } : {}),
    ...(job.rate_tenant ? { rateTenant: rateTenantOf(job.rate_tenant) } : {}),
    ...(job.deadline_at !== undefined ? { timeoutSeconds: (job.deadline_at - job.created_at) / 1000 } : {}),
    ...(job.history?.method_id
      ? { methodLink: { methodId: job.history.method_id, version: job.history.method_version ?? null } }
      : {}),
  };
}

/**
 * A payload's organization as the throttle reads it (an absent share stays absent).
 * @param tenant - the payload's `rate_tenant`
 */
function rateTenantOf(tenant: NonNullable<RunJob['rate_tenant']>): RateTenant {
  return { key: tenant.key, ...(tenant.share === undefined ? {} : { share: tenant.share }) };
}

/**
 * The runtime's ports of a submission's run: its inference calls made for its organization, when it has one.
 * @param submission - the run
 * @param deps - the host's ports
 */
function runDeps<T extends Pick<RuntimeDeps, 'inference'>>(submission: RunSubmission, deps: T): T {
  return submission.rateTenant ? { ...deps, inference: tenantInference(deps.inference, submission.rateTenant) } : deps;
}

/**
 * The registry record of a run the API just accepted (state `STARTED`): what the API stores, and what a worker rebuilds
 * from the job (whose admission checks it against the stored one) to write each later state without reading the
 * record first.
 * @param submission - the run: its id, pipe, owner, scope and request id
 * @param workflowId - its workflow id (the BullMQ job id); null for a run in the API process (direct mode)
 * @param createdAt - when it was accepted, epoch ms
 * @param history - what the history keeps of it beyond its state ({@link historyFacts})
 */
export function acceptedRecord(
  submission: Pick<RunSubmission, 'pipelineRunId' | 'pipeCode' | 'owner' | 'storageScope' | 'requestId'>,
  workflowId: string | null,
  createdAt: number,
  history: RunHistoryFacts = {},
): RunRecord {
  const traceId = activeTraceId();
  // the fields first, the spreads after (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path); none overlaps them
  return {
    pipeline_run_id: submission.pipelineRunId,
    workflow_id: workflowId,
    state: 'STARTED',
    pipe_code: submission.pipeCode,
    owner: submission.owner,
    storage_scope: submission.storageScope,
    request_id: submission.requestId,
    created_at: new Date(createdAt).toISOString(),
    started_at: null,
    finished_at: null,
    ...(traceId ? { trace_id: traceId } : {}),
    ...history,
  };
}

/**
 * The accepted record of a queued job's run, rebuilt from the job as the API wrote it ({@link acceptedRecord}): what a
 * worker compares with the record kept under the run's id before it acts on the job (docs/run-ownership.md "Queue
 * jobs").
 * @param job - the job's payload, whole or offloaded
 * @param jobId - the job's BullMQ id (the run's `workflow_id`)
 */
export function acceptedRecordOfJob(job: QueuedRunJob, jobId: string): RunRecord {
  return acceptedRecord(
    {
      pipelineRunId: job.pipeline_run_id,
      pipeCode: job.pipe_code,
      owner: job.owner,
      storageScope: job.storage_scope,
      requestId: job.request_id,
    },
    jobId,
    job.created_at,
    job.history,
  );
}

/**
 * Run a submission to completion in the caller's thread: the runtime's bundle run, rendered as the run result, with
 * the fetch's provenance on a `method_ref` run.
 * @param submission - the run
 * @param deps - the runtime's ports (inference, extractor, templates, ids, clock, abort signal, progress observer; the
 *   document printer, {@link createDocumentPrinter}'s by default)
 * @param library - the run's library when the caller already checked the bundles (the API); loaded here otherwise
 * @returns the run result (spec §2.4)
 * @throws ValidateBundleError, PipeNotFoundError, StuffFactoryError (422) and any pipe error
 */
export async function executeSubmission(
  submission: RunSubmission,
  deps: Omit<RuntimeDeps, 'libraryFiles'>,
  library?: Library,
): Promise<RunResult> {
  const finished = await runBundle(
    {
      sources: submission.sources,
      pipeCode: submission.pipeCode,
      inputs: submission.inputs,
      outputName: submission.outputName,
      outputMultiplicity: submission.outputMultiplicity,
      dynamicOutputConceptRef: submission.dynamicOutputConceptRef,
      pipelineRunId: submission.pipelineRunId,
      maxCostUsd: submission.maxCostUsd ?? null,
      ...(library ? { library } : {}),
    },
    {
      printer: DOCUMENT_PRINTER,
      ...runDeps(submission, deps),
      ...(submission.libraryFiles ? { libraryFiles: submission.libraryFiles } : {}),
    },
  );
  return withProvenance(
    completedRunResult(finished.outcome, finished.library, finished.graph),
    submission.methodProvenance,
  );
}

/**
 * The I/O artifacts of a completed submission (docs/api.md#run-results), kept with its record: built from the library
 * it ran in — the one given, else the process's cached library of its sources (`run-library-cache.ts`), which its run
 * has just used.
 * @param submission - the completed run
 * @param library - its library, when the caller holds it
 * @returns the artifacts, or their absence with the reason; never throws
 */
export function submissionIOArtifacts(submission: RunSubmission, library?: Library): RunIOArtifacts {
  try {
    return runIOArtifacts(
      library ?? loadRunLibrary(submission.sources, undefined, submission.libraryFiles?.paths() ?? null),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return missingRunIOArtifacts(`The library of the run could not be loaded again: ${message}`);
  }
}

/**
 * Run one fanned-out child of a submission (docs/fan-out.md) in the caller's thread, with the ports a run of the
 * submission gets ({@link executeSubmission}): its library (built once per process, `run-library-cache.ts`), its
 * library files, the document printer.
 * @param submission - the run the child belongs to
 * @param child - the child: pipe ref, memory snapshot, output name, params
 * @param deps - the runtime's ports (its `fanOut` and `observer` are not used: a child's controllers run here)
 * @returns the child's outcome or error, with its usage, pipe reports and graph
 * @throws ValidateBundleError (422) when the sources do not load; PipeNotFoundError when the pipe ref names no pipe
 */
export function executeChild(
  submission: RunSubmission,
  child: FanOutChild,
  deps: Omit<RuntimeDeps, 'libraryFiles'>,
): Promise<ChildRunResult> {
  const library = loadRunLibrary(submission.sources, undefined, submission.libraryFiles?.paths() ?? null);
  return runChildPipeline(library, child, {
    printer: DOCUMENT_PRINTER,
    ...runDeps(submission, deps),
    ...(submission.libraryFiles ? { libraryFiles: submission.libraryFiles } : {}),
  });
}
