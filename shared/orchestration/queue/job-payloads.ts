/**
 * Job payloads: plain JSON validated on enqueue and again when a worker takes the job
 * (CONTRIBUTING.md#15-job-payloads-are-plain-json). They carry
 * bundle sources, inputs, the request id and the scope — never live objects. This module holds the run and callback
 * jobs; a child job's payload and return value are in `child-job-payload.ts` and `child-job-result.ts`.
 */
import { z } from 'zod';
import { METHOD_PROVENANCE } from '../../methods/index.js';
import { TRACEPARENT_PATTERN } from '../../observability/index.js';

/**
 * What the run history keeps of a run beyond its record's state (docs/control-plane.md#run-history): the stored method
 * it belongs to and the digest of its bundle texts. Carried by every job, whole or offloaded, so each state a worker
 * writes keeps them.
 */
const RUN_HISTORY_FACTS = z.strictObject({
  method_id: z.string().optional(),
  method_version: z.number().int().positive().optional(),
  source_digest: z.string().optional(),
  /** Keep the run as sent in storage (`submissions/`), which the worker does when it takes the run. */
  keep_submission: z.boolean().optional(),
  /** The run this one retries (`POST /v1/runs/{id}/retry`; docs/checkpoints.md#retrying-a-run). */
  retry_of: z.string().optional(),
});
/** A run's history facts. */
export type RunHistoryFacts = z.infer<typeof RUN_HISTORY_FACTS>;

/** A run to execute. */
export const RUN_JOB = z.strictObject({
  pipeline_run_id: z.string().min(1).max(128),
  request_id: z.string(),
  /** The caller's own id, owner of the run (docs/run-ownership.md). */
  owner: z.string(),
  sources: z.array(z.object({ content: z.string(), source: z.string().nullable() })).min(1),
  pipe_code: z.string().nullable(),
  inputs: z.unknown(),
  output_name: z.string().nullable(),
  output_multiplicity: z.union([z.boolean(), z.number().int()]).nullable(),
  dynamic_output_concept_ref: z.string().nullable(),
  storage_scope: z.string(),
  callback_urls: z.array(z.string()),
  /**
   * Library files of a `bundle_b64` / `files` bundle: bundle-relative path → base64 bytes
   * (docs/bundles.md#whole-bundle-transports).
   * Bounded by `MAX_BUNDLE_TOTAL_KIB`, checked by the API before enqueueing.
   */
  library_files: z.record(z.string(), z.base64()).optional(),
  /**
   * The same library files once the API wrote them to `<storage_scope>/assets/` (docs/storage.md): bundle-relative
   * path → object name. A worker reads them back into `library_files` before the run.
   */
  library_file_objects: z.record(z.string(), z.string()).optional(),
  /** Where a `method_ref` run's sources came from (fetched once, in the API; workers never refetch). */
  method_provenance: METHOD_PROVENANCE.nullable().default(null),
  /** The run's budget in USD (docs/inference.md#run-budget); none when absent. */
  max_cost_usd: z.number().positive().optional(),
  /**
   * The organization whose share of the provider rate limits the run's calls count against
   * (docs/inference.md#organization-shares): its key, and its own share when an operator gave it one; none for a run
   * of the deployment principal (not capped).
   */
  rate_tenant: z
    .strictObject({ key: z.string().min(1).max(128), share: z.number().gt(0).lte(1).optional() })
    .optional(),
  created_at: z.number().int(),
  /** When the run times out, epoch ms: `created_at` plus its `timeout_seconds` (docs/cancellation.md#deadlines). */
  deadline_at: z.number().int().optional(),
  history: RUN_HISTORY_FACTS.optional(),
  /**
   * A retry's original run (docs/checkpoints.md#retrying-a-run): its id, request id and acceptance time (epoch ms),
   * which tell its submission, so the retry replays the steps it finished from its checkpoints.
   */
  replay_from: z
    .strictObject({
      pipeline_run_id: z.string().min(1).max(128),
      request_id: z.string(),
      created_at: z.number().int(),
    })
    .optional(),
  /** The W3C `traceparent` of the work that queued the job, sealed with it (docs/tracing.md#one-trace-per-run). */
  trace_parent: z.string().regex(TRACEPARENT_PATTERN).optional(),
});
/** A run job's payload. */
export type RunJob = z.infer<typeof RUN_JOB>;

/**
 * A run job whose payload was larger than `STORAGE_PAYLOAD_OFFLOAD_KIB`: Redis keeps these few fields (what a failure
 * is recorded with) and the name of the whole payload, stored under `<storage_scope>/payloads/` (docs/storage.md).
 */
const OFFLOADED_RUN_JOB = z.strictObject({
  pipeline_run_id: RUN_JOB.shape.pipeline_run_id,
  request_id: z.string(),
  owner: z.string(),
  storage_scope: z.string(),
  pipe_code: z.string().nullable(),
  callback_urls: z.array(z.string()),
  created_at: z.number().int(),
  deadline_at: RUN_JOB.shape.deadline_at,
  /** The object name of the whole {@link RUN_JOB} payload under `<storage_scope>/payloads/`. */
  payload_object: z.string(),
  history: RUN_HISTORY_FACTS.optional(),
  trace_parent: RUN_JOB.shape.trace_parent,
});
/** An offloaded run job. */
export type OffloadedRunJob = z.infer<typeof OFFLOADED_RUN_JOB>;

/** What the run queue carries: a whole payload, or the reference of an offloaded one. */
export const QUEUED_RUN_JOB = z.union([RUN_JOB, OFFLOADED_RUN_JOB]);
/** A queued run job. */
export type QueuedRunJob = z.infer<typeof QUEUED_RUN_JOB>;

/** A completion callback to deliver to one URL (spec §6). */
export const CALLBACK_JOB = z.strictObject({
  pipeline_run_id: z.string(),
  request_id: z.string(),
  url: z.string().url(),
  /** The exact body bytes to send (JSON text), so retries send the same bytes and signatures. */
  body: z.string(),
  /** The run's `traceparent`: the delivery's span links to it (docs/tracing.md#callbacks). */
  trace_parent: RUN_JOB.shape.trace_parent,
});
/** A callback job's payload. */
export type CallbackJob = z.infer<typeof CALLBACK_JOB>;
