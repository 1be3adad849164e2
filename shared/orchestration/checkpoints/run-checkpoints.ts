/**
 * The step checkpoints of queued runs, in Redis (docs/checkpoints.md): one hash per run,
 * `<QUEUE_PREFIX>:checkpoints:<pipeline_run_id>`, whose fields are step paths (`main/s2/b11`) and whose values are the
 * checkpoints as JSON, each with the fingerprint of the submission that made it. A checkpoint is replayed only by an
 * attempt of the same submission (same fingerprint), so a run id reused for another bundle or other inputs never
 * replays the earlier run's steps. The hash lives as long as the run record (`RUN_RECORD_TTL_SECONDS`, renewed on each
 * save) and is dropped when the run finishes.
 *
 * Checkpoints are a saving, never a condition of the run: a checkpoint larger than `STEP_CHECKPOINT_MAX_BYTES` is not
 * kept, and a Redis failure loses the checkpoint (reported to `onProblem`) instead of failing the run; either way the
 * step runs again on a retake.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { StepCheckpoint, StepCheckpointStore } from '../../runtime/index.js';
import { type AbsenceRecord, absenceOf, absenceRecord, inferenceCallOf, tokensUsageRecord } from '../../wire/index.js';
import type { RunJob } from '../queue/job-payloads.js';
import type { QueueKeys } from '../queue/queue-keys.js';

/**
 * The fingerprint of a submission: SHA-256 (hex) of the canonical JSON of what its outputs depend on and what tells it
 * from another submission of the same run id — the run id, request id and acceptance time, the bundle sources and
 * library files, the pipe, the inputs and the run parameters (output name, multiplicity, dynamic concept).
 * @param job - the whole run job payload (an offloaded one loaded, its inputs' references inlined)
 */
export function submissionFingerprint(job: RunJob): string {
  const submission = {
    pipeline_run_id: job.pipeline_run_id,
    request_id: job.request_id,
    created_at: job.created_at,
    sources: job.sources,
    library_files: job.library_files ?? null,
    pipe_code: job.pipe_code,
    inputs: job.inputs ?? null,
    output_name: job.output_name,
    output_multiplicity: job.output_multiplicity,
    dynamic_output_concept_ref: job.dynamic_output_concept_ref,
  };
  return createHash('sha256')
    .update(canonicalize(submission) ?? '')
    .digest('hex');
}

const ABSENCE: z.ZodType<AbsenceRecord> = z.lazy(() =>
  z.object({
    variable_name: z.string(),
    kind: z.enum(['declared_absent', 'skipped', 'not_provided']),
    reason: z.string(),
    producing_pipe: z.string().nullable(),
    upstream: ABSENCE.nullable(),
  }),
);

const ITEM = z.record(z.string(), z.unknown());

/**
 * A checkpoint as kept: the runtime's checkpoint, its inference calls as usage records and an absent outcome as an
 * absence record (the wire's `TokensUsageRecord` with its `backend`, and `AbsenceRecord`: the JSON checkpoints have
 * always kept), and the fingerprint of the submission that made it.
 */
const KEPT_CHECKPOINT = z.object({
  fingerprint: z.string(),
  checkpoint: z.object({
    pipe_code: z.string(),
    inputs_digest: z.string(),
    outcome: z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('stuff'),
        stuff_code: z.string(),
        stuff_name: z.string().nullable(),
        concept_ref: z.string(),
        content: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('item'), item: ITEM }),
          z.object({ kind: z.literal('list'), items: z.array(ITEM) }),
        ]),
      }),
      z.object({ kind: z.literal('absent'), absence: ABSENCE }),
    ]),
    usage: z.array(
      z.object({
        model_type: z.enum(['llm', 'img_gen', 'search']),
        inference_model_name: z.string(),
        inference_model_id: z.string(),
        pipe_code: z.string().nullable(),
        job_category: z.string().nullable(),
        unit_job_id: z.string().nullable(),
        nb_tokens_by_category: z.record(z.string(), z.number()),
        cost: z.number().nullable(),
        backend: z.string().nullable(),
        started_at: z.string().nullable(),
        completed_at: z.string().nullable(),
      }),
    ),
  }),
});

/** A checkpoint as {@link KEPT_CHECKPOINT} keeps it. */
type KeptCheckpoint = z.infer<typeof KEPT_CHECKPOINT>['checkpoint'];

function keptCheckpoint(checkpoint: StepCheckpoint): KeptCheckpoint {
  const { outcome } = checkpoint;
  return {
    ...checkpoint,
    outcome: outcome.kind === 'absent' ? { kind: 'absent', absence: absenceRecord(outcome.absence) } : outcome,
    usage: checkpoint.usage.map(tokensUsageRecord),
  };
}

function checkpointOf(kept: KeptCheckpoint): StepCheckpoint {
  const { outcome } = kept;
  return {
    ...kept,
    outcome: outcome.kind === 'absent' ? { kind: 'absent', absence: absenceOf(outcome.absence) } : outcome,
    usage: kept.usage.map(inferenceCallOf),
  };
}

/** What {@link RunCheckpoints} is built with. */
export interface RunCheckpointsOptions {
  /** Lifetime of a run's checkpoints after its last save, in seconds (the run record's, `RUN_RECORD_TTL_SECONDS`). */
  ttlSeconds: number;
  /** Largest checkpoint kept, in bytes of JSON (`STEP_CHECKPOINT_MAX_BYTES`); 0 keeps none. */
  maxBytes: number;
  /**
   * Told of a checkpoint that was not kept or could not be read: the run, why (a sentence), and the Redis error when
   * one caused it. Never throws.
   */
  onProblem(runId: string, message: string, error?: unknown): void;
}

/** The step checkpoints of a deployment's runs, in Redis. */
export class RunCheckpoints {
  /**
   * @param redis - the connection its commands use
   * @param keys - the deployment's Redis names
   * @param options - lifetime, size bound and where problems go
   */
  constructor(
    private readonly redis: Redis,
    private readonly keys: QueueKeys,
    private readonly options: RunCheckpointsOptions,
  ) {}

  /**
   * The checkpoint store of one attempt of a run, bound to its submission's fingerprint.
   * @param job - the whole run job payload
   * @param retake - whether an earlier attempt of the job ran (a retry, or a retake after its worker died); a first
   *   attempt reads nothing (no checkpoint of its submission can exist yet), so its steps cost no read
   * @returns the store the runtime reads and writes, or undefined when checkpoints are off (`maxBytes` 0)
   */
  forRun(job: RunJob, retake: boolean): StepCheckpointStore | undefined {
    if (this.options.maxBytes === 0) return undefined;
    const key = this.keys.checkpoints(job.pipeline_run_id);
    const fingerprint = submissionFingerprint(job);
    const { ttlSeconds, maxBytes } = this.options;
    const onProblem = (message: string, error?: unknown) => this.options.onProblem(job.pipeline_run_id, message, error);
    return {
      load: async (stepPath) => {
        if (!retake) return undefined;
        try {
          const text = await this.redis.hget(key, stepPath);
          if (text === null) return undefined;
          const kept = KEPT_CHECKPOINT.safeParse(JSON.parse(text));
          if (!kept.success) {
            onProblem(`the checkpoint of step '${stepPath}' is not a valid checkpoint; the step runs again`);
            return undefined;
          }
          return kept.data.fingerprint === fingerprint ? checkpointOf(kept.data.checkpoint) : undefined;
        } catch (error) {
          onProblem(`the checkpoint of step '${stepPath}' could not be read; the step runs again`, error);
          return undefined;
        }
      },
      save: async (stepPath, checkpoint) => {
        const text = JSON.stringify({ fingerprint, checkpoint: keptCheckpoint(checkpoint) });
        const bytes = Buffer.byteLength(text);
        if (bytes > maxBytes) {
          onProblem(
            `the checkpoint of step '${stepPath}' (${bytes} bytes) is larger than STEP_CHECKPOINT_MAX_BYTES (${maxBytes}) and was not kept; the step would run again on a retake`,
          );
          return;
        }
        try {
          const replies = await this.redis.multi().hset(key, stepPath, text).expire(key, ttlSeconds).exec();
          const failure = replies?.find(([error]) => error !== null)?.[0];
          if (failure) throw failure;
        } catch (error) {
          onProblem(
            `the checkpoint of step '${stepPath}' could not be kept; the step would run again on a retake`,
            error,
          );
        }
      },
    };
  }

  /**
   * Drop a run's checkpoints (it finished: no attempt will replay them).
   * @param runId - the `pipeline_run_id`
   * @throws whatever the Redis call throws
   */
  async drop(runId: string): Promise<void> {
    await this.redis.del(this.keys.checkpoints(runId));
  }
}
