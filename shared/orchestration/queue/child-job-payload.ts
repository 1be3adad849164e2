/**
 * The payload of a child job (docs/fan-out.md): the run it belongs to and the runtime's `FanOutChild`, its working
 * memory kept as plain JSON (absences as the wire's absence records), checked against {@link CHILD_JOB} when it is
 * added and again when a worker takes it (CONTRIBUTING.md#15-job-payloads-are-plain-json).
 */
import { z } from 'zod';
import type { FanOutChild } from '../../runtime/index.js';
import { type AbsenceRecord, absenceOf, absenceRecord } from '../../wire/index.js';
import { RUN_JOB } from './job-payloads.js';

/** A stuff of a kept working memory: its code, name, concept and content. */
export const STUFF_SNAPSHOT = z.object({
  stuffCode: z.string(),
  stuffName: z.string().nullable(),
  concept: z.looseObject({ ref: z.string(), code: z.string(), domain_code: z.string() }),
  content: z.union([
    z.object({ kind: z.literal('item'), item: z.record(z.string(), z.unknown()) }),
    z.object({ kind: z.literal('list'), items: z.array(z.record(z.string(), z.unknown())) }),
  ]),
});

/** An absence of a kept working memory, as an absence record. */
export const ABSENCE = z.looseObject({ variable_name: z.string(), kind: z.string(), reason: z.string() });

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
  /** The `traceparent` of the controller's pipe that fanned it out (docs/tracing.md#fan-out). */
  trace_parent: RUN_JOB.shape.trace_parent,
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
