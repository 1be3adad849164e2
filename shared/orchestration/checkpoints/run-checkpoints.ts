/**
 * The step checkpoints of queued runs, in Redis (docs/checkpoints.md): one hash per run,
 * `<QUEUE_PREFIX>:checkpoints:<pipeline_run_id>`, whose fields are step paths (`main/s2/b11`) and whose values are the
 * checkpoints as JSON, each with the fingerprint of the submission that made it. A checkpoint is replayed only by an
 * attempt of the same submission (same fingerprint), so a run id reused for another bundle or other inputs never
 * replays the earlier run's steps. The hash lives as long as the run record (`RUN_RECORD_TTL_SECONDS`, or the
 * retention below when longer, renewed on each save); it is dropped with a completed run's end, and kept
 * `RUN_CHECKPOINT_RETENTION_HOURS` when it ends `FAILED`, `CANCELLED` or `TIMED_OUT`, for its retries: a retry (a new
 * run whose job names its original in `replay_from`) also reads the original's hash, bound to the original
 * submission's fingerprint, and keeps what it replays from there as its own, so a retry of the retry finds it too. A
 * step replayed from the original carries no usage: its calls are reported, and were budgeted, by the original run.
 *
 * Checkpoints are a saving, never a condition of the run: a checkpoint larger than `STEP_CHECKPOINT_MAX_BYTES` is not
 * kept, and a Redis failure loses the checkpoint (reported to `onProblem`) instead of failing the run; either way the
 * step runs again on a retake.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { z } from 'zod';
import type { RedisClient } from '../../config/index.js';
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

/** Where the checkpoints of one submission are kept: its run's hash, and its fingerprint. */
interface Submission {
  key: string;
  fingerprint: string;
}

/** What {@link RunCheckpoints} is built with. */
export interface RunCheckpointsOptions {
  /**
   * Lifetime of a run's checkpoints after its last save, in seconds (the run record's, `RUN_RECORD_TTL_SECONDS`), or
   * `retentionSeconds` when that is longer.
   */
  ttlSeconds: number;
  /**
   * Lifetime of the checkpoints of a run that ended `FAILED`, `CANCELLED` or `TIMED_OUT`, from its end, in seconds
   * (`RUN_CHECKPOINT_RETENTION_HOURS`); 0 drops them at its end.
   */
  retentionSeconds: number;
  /** Largest checkpoint kept, in bytes of JSON (`STEP_CHECKPOINT_MAX_BYTES`); 0 keeps none. */
  maxBytes: number;
  /**
   * Told of a checkpoint that was not kept or could not be read: the run, why (a sentence), and the Redis error when
   * one caused it. Never throws.
   */
  onProblem(runId: string, message: string, error?: unknown): void;
}

/**
 * The checkpoint store of one run attempt, with the writes it has under way. A store written behind (an in-process
 * attempt's) answers a save at once, holds it {@link CHECKPOINT_LINGER_MS} for the saves that follow, then writes them
 * together: the attempt waits with {@link settled} before its end is recorded (a failure, a stop: a retry reads the
 * checkpoints), and a completed run {@link abandon}s what it still holds, since its end drops its checkpoints
 * (docs/checkpoints.md).
 */
export interface RunCheckpointStore extends StepCheckpointStore {
  /** Write what is held now, and wait for every write started so far (kept or lost: a write never throws). */
  settled(): Promise<void>;
  /**
   * The run completed: drop the saves not written yet (no retry will read them) and wait for the writes under way, so
   * that none lands after the run's end drops its checkpoints.
   */
  abandon(): Promise<void>;
}

/**
 * How long a save written behind waits for the saves that follow it, in ms: the steps a run finishes close together
 * are written in one round trip, and a run that completes within it writes none (docs/checkpoints.md).
 */
export const CHECKPOINT_LINGER_MS = 10;

/** Most checkpoints one script call writes (its arguments stay far below Lua's `unpack` bound). */
const MOST_PER_WRITE = 200;

/** The checkpoint script, defined on the connection. */
type ScriptedRedis = RedisClient & {
  /** KEYS: the run's checkpoints hash; ARGV: lifetime in seconds, then step path and kept checkpoint (JSON) pairs. */
  mthdsKeepCheckpoints(key: string, ttlSeconds: number, ...pathsAndTexts: string[]): Promise<number>;
};

/** Keep steps' checkpoints and restart the lifetime of the run's checkpoints: one round trip, one atomic step. */
const KEEP_CHECKPOINTS = `
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
return redis.call('EXPIRE', KEYS[1], ARGV[1])
`;

/** The step checkpoints of a deployment's runs, in Redis. */
export class RunCheckpoints {
  /**
   * @param redis - the connection its commands use
   * @param keys - the deployment's Redis names
   * @param options - lifetime, size bound and where problems go
   */
  private readonly scripted: ScriptedRedis;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: QueueKeys,
    private readonly options: RunCheckpointsOptions,
  ) {
    redis.defineCommand('mthdsKeepCheckpoints', { numberOfKeys: 1, lua: KEEP_CHECKPOINTS });
    this.scripted = redis as ScriptedRedis;
  }

  /**
   * The checkpoint store of one attempt of a run, bound to its submission's fingerprint.
   * @param job - the whole run job payload
   * @param retake - whether an earlier attempt of the job ran (a retry, or a retake after its worker died); a first
   *   attempt reads nothing of its own (no checkpoint of its submission can exist yet), so its steps cost no read,
   *   unless it is a retry of another run (`replay_from`), whose checkpoints it reads
   * @param options - `behind`: a save answers at once and is written {@link CHECKPOINT_LINGER_MS} later with the saves
   *   made meanwhile (see {@link RunCheckpointStore})
   * @returns the store the runtime reads and writes, or undefined when checkpoints are off (`maxBytes` 0)
   */
  forRun(job: RunJob, retake: boolean, options: { behind?: boolean } = {}): RunCheckpointStore | undefined {
    if (this.options.maxBytes === 0) return undefined;
    let fingerprint: string | undefined;
    // computed when a checkpoint is first read or written: a run that writes none pays nothing for it
    const own: Submission = {
      key: this.keys.checkpoints(job.pipeline_run_id),
      get fingerprint() {
        fingerprint ??= submissionFingerprint(job);
        return fingerprint;
      },
    };
    // a retry's original: the same submission but for the ids and time that tell the original's
    const origin: Submission | undefined = job.replay_from && {
      key: this.keys.checkpoints(job.replay_from.pipeline_run_id),
      fingerprint: submissionFingerprint({ ...job, ...job.replay_from }),
    };
    const { maxBytes } = this.options;
    // never shorter than the retention, so a save that comes after the run ended (a fanned-out child finishing while
    // its run failed) does not cut short the lifetime `retain` gave the run's checkpoints
    const ttlSeconds = Math.max(this.options.ttlSeconds, this.options.retentionSeconds);
    const onProblem = (message: string, error?: unknown) => this.options.onProblem(job.pipeline_run_id, message, error);
    const read = async (from: Submission, stepPath: string): Promise<StepCheckpoint | undefined> => {
      try {
        const text = await this.redis.hget(from.key, stepPath);
        if (text === null) return undefined;
        const kept = KEPT_CHECKPOINT.safeParse(JSON.parse(text));
        if (!kept.success) {
          onProblem(`the checkpoint of step '${stepPath}' is not a valid checkpoint; the step runs again`);
          return undefined;
        }
        return kept.data.fingerprint === from.fingerprint ? checkpointOf(kept.data.checkpoint) : undefined;
      } catch (error) {
        onProblem(`the checkpoint of step '${stepPath}' could not be read; the step runs again`, error);
        return undefined;
      }
    };
    const writes = new Set<Promise<void>>();
    const keep = async (saves: [string, StepCheckpoint][]): Promise<void> => {
      const fields: string[] = [];
      for (const [stepPath, checkpoint] of saves) {
        const text = JSON.stringify({ fingerprint: own.fingerprint, checkpoint: keptCheckpoint(checkpoint) });
        const bytes = Buffer.byteLength(text);
        if (bytes <= maxBytes) fields.push(stepPath, text);
        else
          onProblem(
            `the checkpoint of step '${stepPath}' (${bytes} bytes) is larger than STEP_CHECKPOINT_MAX_BYTES (${maxBytes}) and was not kept; the step would run again on a retake`,
          );
      }
      for (let start = 0; start < fields.length; start += 2 * MOST_PER_WRITE) {
        const chunk = fields.slice(start, start + 2 * MOST_PER_WRITE);
        try {
          await this.scripted.mthdsKeepCheckpoints(own.key, ttlSeconds, ...chunk);
        } catch (error) {
          for (let index = 0; index < chunk.length; index += 2)
            onProblem(
              `the checkpoint of step '${chunk[index]}' could not be kept; the step would run again on a retake`,
              error,
            );
        }
      }
    };
    const write = (saves: [string, StepCheckpoint][]): Promise<void> => {
      const writing = keep(saves);
      writes.add(writing);
      void writing.finally(() => writes.delete(writing));
      return writing;
    };
    const held = new Map<string, StepCheckpoint>();
    let lingering: NodeJS.Timeout | undefined;
    const writeHeld = () => {
      clearTimeout(lingering);
      lingering = undefined;
      if (held.size === 0) return;
      const saves = [...held];
      held.clear();
      void write(saves);
    };
    const store: RunCheckpointStore = {
      load: async (stepPath) => {
        const mine = retake ? await read(own, stepPath) : undefined;
        if (mine || !origin) return mine;
        const replayed = await read(origin, stepPath);
        if (!replayed) return undefined;
        // its calls were paid by the original run, whose usage reports them: the retry reports and budgets its own
        const inherited = { ...replayed, usage: [] };
        // kept as the retry's own, so that a retry of this run finds it too
        await store.save(stepPath, inherited);
        return inherited;
      },
      save: (stepPath, checkpoint) => {
        if (!options.behind) return write([[stepPath, checkpoint]]);
        held.set(stepPath, checkpoint);
        lingering ??= setTimeout(writeHeld, CHECKPOINT_LINGER_MS);
        return Promise.resolve();
      },
      settled: async () => {
        writeHeld();
        await Promise.all(writes);
      },
      abandon: async () => {
        clearTimeout(lingering);
        lingering = undefined;
        held.clear();
        await Promise.all(writes);
      },
    };
    return store;
  }

  /**
   * Keep the checkpoints of a run that ended `FAILED`, `CANCELLED` or `TIMED_OUT` for its retries: they expire
   * `retentionSeconds` from now, or are dropped now when that is 0.
   * @param runId - the `pipeline_run_id`
   * @throws whatever the Redis call throws
   */
  async retain(runId: string): Promise<void> {
    const key = this.keys.checkpoints(runId);
    if (this.options.retentionSeconds === 0) await this.redis.del(key);
    else await this.redis.expire(key, this.options.retentionSeconds);
  }
}
