/**
 * Job payloads: plain JSON validated on enqueue and again when a worker takes the job
 * (CONTRIBUTING.md#15-job-payloads-are-plain-json). They carry
 * bundle sources, inputs, the request id and the scope — never live objects.
 */
import { z } from 'zod';
import type { ErrorReport } from '../../errors/index.js';
import { METHOD_PROVENANCE } from '../../methods/index.js';
import type { FanOutChild, FanOutOutcome, FanOutReport, PipeProgress } from '../../runtime/index.js';
import {
  type AbsenceRecord,
  absenceOf,
  absenceRecord,
  inferenceCallOf,
  pipeTokenUsageOf,
  type RunUsageReport,
  runUsageReport,
  type TokenCounts,
  type TokensUsageRecord,
  tokenCounts,
  tokensUsageRecord,
  usageSummaryOf,
} from '../../wire/index.js';

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
  created_at: z.number().int(),
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
  /** The object name of the whole {@link RUN_JOB} payload under `<storage_scope>/payloads/`. */
  payload_object: z.string(),
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
});
/** A callback job's payload. */
export type CallbackJob = z.infer<typeof CALLBACK_JOB>;

const STUFF_SNAPSHOT = z.object({
  stuffCode: z.string(),
  stuffName: z.string().nullable(),
  concept: z.looseObject({ ref: z.string(), code: z.string(), domain_code: z.string() }),
  content: z.union([
    z.object({ kind: z.literal('item'), item: z.record(z.string(), z.unknown()) }),
    z.object({ kind: z.literal('list'), items: z.array(z.record(z.string(), z.unknown())) }),
  ]),
});

const ABSENCE = z.looseObject({ variable_name: z.string(), kind: z.string(), reason: z.string() });

const MEMORY_SNAPSHOT = z.object({
  root: z.array(z.tuple([z.string(), STUFF_SNAPSHOT])),
  aliases: z.array(z.tuple([z.string(), z.string()])),
  absences: z.array(z.tuple([z.string(), ABSENCE])),
  absentMain: z.string().nullable(),
});

/** The shape of a runtime `FanOutChild` (the runtime's types name the concept and absence members in full). */
const FAN_OUT_CHILD = z.object({
  pipeRef: z.string().min(1),
  memory: MEMORY_SNAPSHOT,
  outputName: z.string().nullable(),
  params: z.object({
    outputMultiplicity: z.union([z.boolean(), z.number().int()]).nullable(),
    dynamicOutputConceptRef: z.string().nullable(),
    stack: z.array(z.string()),
    stepPath: z.string().min(1),
  }),
  pipes: z.object({ max: z.number().int().positive(), started: z.number().int().nonnegative() }),
});

/**
 * A fanned-out child of a queued run (docs/fan-out.md): which run it belongs to (its job id in the run queue, whose
 * payload gives the bundle; `created_at` and `request_id` tell one submission of a run id from another) and the
 * child itself: the branch pipe, its working memory and parameters, and its run's pipe bound and count (the child's
 * pipes count on from it: docs/limits.md#pipes-per-run). `first_attempt` is true when the child belongs to
 * its run's first attempt, which left no step checkpoints to replay: the child then looks for none unless it is itself
 * retaken (its worker died); absent, it always looks (docs/checkpoints.md).
 */
export const CHILD_JOB = z.strictObject({
  pipeline_run_id: RUN_JOB.shape.pipeline_run_id,
  request_id: z.string(),
  run_job_id: z.string().min(1),
  created_at: z.number().int(),
  first_attempt: z.boolean().optional(),
  child: FAN_OUT_CHILD,
});
/** A child job (its `child` is a runtime `FanOutChild`). */
export type ChildJob = Omit<z.infer<typeof CHILD_JOB>, 'child'> & { child: FanOutChild };

/** A child as its job's payload keeps it: its memory's absences as absence records (the wire's `AbsenceRecord`). */
type KeptChild = Omit<FanOutChild, 'memory'> & {
  memory: Omit<FanOutChild['memory'], 'absences'> & { absences: [string, AbsenceRecord][] };
};

/** A child job's payload, as {@link CHILD_JOB} checks it: the JSON child jobs have always carried. */
export type ChildJobPayload = Omit<ChildJob, 'child'> & { child: KeptChild };

/**
 * The payload of a child job, checked against {@link CHILD_JOB}.
 * @param job - the child job
 * @throws ZodError when it does not match (a programming error)
 */
export function childJobPayload(job: ChildJob): ChildJobPayload {
  const { memory } = job.child;
  const child: KeptChild = {
    ...job.child,
    memory: { ...memory, absences: memory.absences.map(([name, absence]) => [name, absenceRecord(absence)]) },
  };
  return CHILD_JOB.parse({ ...job, child }) as unknown as ChildJobPayload;
}

/**
 * The child job a payload carries (the inverse of {@link childJobPayload}).
 * @param payload - a payload that passed {@link CHILD_JOB}
 */
export function childJobOf(payload: ChildJobPayload): ChildJob {
  const { memory } = payload.child;
  return {
    ...payload,
    child: {
      ...payload.child,
      memory: { ...memory, absences: memory.absences.map(([name, record]) => [name, absenceOf(record)]) },
    },
  };
}

const USAGE_FIGURES = z.looseObject({
  calls: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost_usd: z.number().nullable(),
  unpriced_calls: z.number(),
});

/** A pipe report as kept: an ended pipe's tokens and the run's usage report in their wire shapes. */
const KEPT_PROGRESS = z.union([
  z.looseObject({ kind: z.literal('started') }),
  z.looseObject({
    kind: z.enum(['finished', 'failed']),
    usage: z.looseObject({ input_tokens: z.number(), output_tokens: z.number() }),
    runUsage: z.looseObject({
      total: USAGE_FIGURES,
      by_model: z.record(z.string(), USAGE_FIGURES),
      by_pipe: z.record(z.string(), USAGE_FIGURES),
    }),
  }),
]);

const FAN_OUT_REPORT = z.object({
  usage: z.array(z.looseObject({ nb_tokens_by_category: z.record(z.string(), z.number()) })),
  progress: z.array(KEPT_PROGRESS),
  graph: z.object({
    nodes: z.array(z.looseObject({ id: z.string() })),
    contains: z.array(z.object({ source: z.string(), target: z.string() })),
    finished: z.array(z.string()),
    pipes: z.array(z.looseObject({ ref: z.string() })),
  }),
  pipes: z.number().int().nonnegative(),
});

const FAN_OUT_OUTCOME = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stuff'), name: z.string().nullable(), stuff: STUFF_SNAPSHOT }),
  z.object({ kind: z.literal('absent'), absence: ABSENCE }),
  z.object({ kind: z.literal('none') }),
]);

/**
 * What a child job returns (its BullMQ return value): the child's outcome, or its failure as an error report, with
 * its usage, pipe reports, graph and the number of pipes it started either way. A pipe failure is a result, not a
 * failed job: the parent decides.
 */
const CHILD_RESULT = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), outcome: FAN_OUT_OUTCOME, report: FAN_OUT_REPORT }),
  z.object({
    ok: z.literal(false),
    error: z.looseObject({ error_type: z.string(), message: z.string(), title: z.string(), type_uri: z.string() }),
    report: FAN_OUT_REPORT,
  }),
]);
/** A child job's result, typed with the runtime's shapes (validated by {@link CHILD_RESULT}). */
export type ChildResult =
  | { ok: true; outcome: FanOutOutcome; report: FanOutReport }
  | { ok: false; error: ErrorReport; report: FanOutReport };

/** A pipe report as a child job's return value keeps it: its token counts and usage report in their wire shapes. */
type KeptProgress<P extends PipeProgress = PipeProgress> = P extends { runUsage: unknown }
  ? Omit<P, 'usage' | 'runUsage'> & { usage: TokenCounts; runUsage: RunUsageReport }
  : P;

/** A fan-out report as a child job's return value keeps it: usage records and pipe reports in their wire shapes. */
type KeptReport = Omit<FanOutReport, 'usage' | 'progress'> & { usage: TokensUsageRecord[]; progress: KeptProgress[] };

/** A child's outcome as its job's return value keeps it: an absence as an absence record. */
type KeptOutcome = Exclude<FanOutOutcome, { kind: 'absent' }> | { kind: 'absent'; absence: AbsenceRecord };

/**
 * A child job's return value: its {@link ChildResult} with the usage and an absent outcome in the wire shapes, the
 * JSON child jobs have always returned, so that a run retaken across an upgrade still reads its children's results
 * (docs/fan-out.md).
 */
export type ChildResultValue =
  | { ok: true; outcome: KeptOutcome; report: KeptReport }
  | { ok: false; error: ErrorReport; report: KeptReport };

function keptReport(report: FanOutReport): KeptReport {
  return {
    ...report,
    usage: report.usage.map(tokensUsageRecord),
    progress: report.progress.map(
      (progress): KeptProgress =>
        progress.kind === 'started'
          ? progress
          : { ...progress, usage: tokenCounts(progress.usage), runUsage: runUsageReport(progress.runUsage) },
    ),
  };
}

function reportOf(kept: KeptReport): FanOutReport {
  return {
    ...kept,
    usage: kept.usage.map(inferenceCallOf),
    progress: kept.progress.map(
      (progress): PipeProgress =>
        progress.kind === 'started'
          ? progress
          : { ...progress, usage: pipeTokenUsageOf(progress.usage), runUsage: usageSummaryOf(progress.runUsage) },
    ),
  };
}

/**
 * The return value of a child job.
 * @param result - the child's result
 */
export function childResultValue(result: ChildResult): ChildResultValue {
  if (!result.ok) return { ...result, report: keptReport(result.report) };
  const { outcome } = result;
  return {
    ok: true,
    outcome: outcome.kind === 'absent' ? { kind: 'absent', absence: absenceRecord(outcome.absence) } : outcome,
    report: keptReport(result.report),
  };
}

/**
 * A child job's return value, checked against {@link CHILD_RESULT}.
 * @param value - the job's return value
 * @returns the result, or undefined when the value is not one
 */
export function childResultOf(value: unknown): ChildResult | undefined {
  if (!CHILD_RESULT.safeParse(value).success) return undefined;
  const kept = value as ChildResultValue;
  if (!kept.ok) return { ...kept, report: reportOf(kept.report) };
  const { outcome } = kept;
  return {
    ok: true,
    outcome: outcome.kind === 'absent' ? { kind: 'absent', absence: absenceOf(outcome.absence) } : outcome,
    report: reportOf(kept.report),
  };
}
