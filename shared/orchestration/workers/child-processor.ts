/**
 * The child job processor (docs/fan-out.md): run one fanned-out child of a queued run. The bundle comes from the run's
 * own job payload (read from the run queue, an offloaded one from storage; kept a short while per process with what
 * each child would otherwise rebuild from it — the submission and the run's checkpoint stores, whose fingerprint
 * digests the whole payload — since a run's children come in numbers), the library from the process's library cache;
 * the child runs through the runtime with this process's ports. A pipe failure is the job's result, as an error report,
 * so that the parent rethrows it
 * as the in-process run would; only a child that cannot run at all (its payload invalid, its run's payload gone)
 * fails the job. A child job, and the run job it reads its bundle from, must carry a valid seal (docs/run-ownership.md
 * "Queue jobs"): any other child job is refused before it runs or writes a checkpoint. A child is held while it runs:
 * a stop of its run (docs/cancellation.md) aborts it, and a child of a run this process heard was stopped does not
 * start (its result is the stop's error).
 */
import { type Job, type Queue, UnrecoverableError } from 'bullmq';
import { LRUCache } from 'lru-cache';
import { MthdsError, toErrorReport } from '../../errors/index.js';
import type { Logger, Metrics } from '../../observability/index.js';
import type {
  DocumentExtractorPort,
  IdSource,
  InferencePort,
  StepCheckpointStore,
  TemplateRenderer,
} from '../../runtime/index.js';
import type { RunCheckpoints } from '../checkpoints/index.js';
import type { RunControls, RunHold } from '../control/index.js';
import {
  CHILD_JOB,
  CHILD_QUEUE,
  type ChildJob,
  type ChildJobPayload,
  type ChildResult,
  type ChildResultValue,
  childJobOf,
  childResultValue,
  type JobSeals,
  QUEUED_RUN_JOB,
  RUN_QUEUE,
} from '../queue/index.js';
import { whenQueueReachable } from '../queue/queue-outage.js';
import type { RunObjects } from '../storage/index.js';
import { executeChild, type RunSubmission, submissionOfJob } from '../submission.js';
import { traceConsumedJob } from '../tracing/index.js';
import { refuseJob } from './job-refusal.js';

/** Run payloads kept per process, and for how long, in ms (the children of one fan-out share one). */
const PAYLOADS_KEPT = 16;
const PAYLOAD_KEEP_MS = 60_000;

/** What the children of one run share in a process: built once from the run's payload. */
interface RunContext {
  submission: RunSubmission;
  /** The run's checkpoint store (`RunCheckpoints.forRun`), made once per value of `retake`. */
  checkpoints(retake: boolean): StepCheckpointStore | undefined;
}

/** What the processor needs. */
export interface ChildProcessorDeps {
  /** The run queue, where a child's run payload is read. */
  runs: Queue;
  /** Verifies the seals of child jobs and of the run jobs they read. */
  seals: JobSeals;
  /** Where an offloaded run payload is read (docs/storage.md). */
  objects: RunObjects;
  inference: InferencePort;
  extractor: DocumentExtractorPort;
  templates: TemplateRenderer;
  ids: IdSource;
  now(): number;
  /** Most children of a nested controller running at once inside a child (`BATCH_MAX_PARALLEL`). */
  batchConcurrency: number;
  /**
   * The step checkpoints of runs: a child checkpoints its operators under its step path and, as it may be a retake
   * (its worker died, or its run's retake runs it again), always looks for theirs (docs/checkpoints.md).
   */
  checkpoints: RunCheckpoints;
  logger: Logger;
  /** Counts refused jobs. */
  metrics: Metrics;
  /** The runs this process holds: a stop of a child's run aborts the child, or keeps it from starting. */
  controls: RunControls;
  /** Base of error `type_uri`s in reports. */
  docsUrl: string;
}

/**
 * Build the processor.
 * @param deps - the run queue, run objects, runtime ports, logger
 */
export function createChildProcessor(
  deps: ChildProcessorDeps,
): (job: Job, token?: string, signal?: AbortSignal) => Promise<ChildResultValue> {
  const contexts = new LRUCache<string, Promise<RunContext>>({ max: PAYLOADS_KEPT, ttl: PAYLOAD_KEEP_MS });

  async function readContext(child: ChildJob): Promise<RunContext> {
    const opened = await whenQueueReachable(
      async () => {
        const runJob = await deps.runs.getJob(child.run_job_id);
        return runJob ? deps.seals.open(RUN_QUEUE, runJob.data) : undefined;
      },
      (reason) => `The run queue (Redis) is unreachable: ${reason}.`,
    );
    const queued = QUEUED_RUN_JOB.safeParse(opened);
    if (!queued.success || queued.data.created_at !== child.created_at)
      throw new UnrecoverableError(
        `the job of run '${child.pipeline_run_id}' is gone (the run ended or was submitted again) or carries no valid seal`,
      );
    const payload = await deps.objects.loadJob(queued.data);
    const stores = new Map<boolean, StepCheckpointStore | undefined>();
    return {
      submission: submissionOfJob(payload),
      checkpoints(retake) {
        if (!stores.has(retake)) stores.set(retake, deps.checkpoints.forRun(payload, retake));
        return stores.get(retake);
      },
    };
  }

  function contextOf(child: ChildJob): Promise<RunContext> {
    const key = `${child.run_job_id}@${child.created_at}`;
    let context = contexts.get(key);
    if (!context) {
      context = readContext(child);
      contexts.set(key, context);
      context.catch(() => contexts.delete(key));
    }
    return context;
  }

  return async (job, _token, signal) => {
    const opened = await deps.seals.open(CHILD_QUEUE, job.data);
    if (!opened) throw refuseJob(deps, CHILD_QUEUE, job, 'seal');
    const parsed = CHILD_JOB.safeParse(opened);
    if (!parsed.success) throw new UnrecoverableError(`invalid child job payload: ${parsed.error.message}`);
    const child = childJobOf(opened as ChildJobPayload);
    const stepPath = child.child.params.stepPath;
    const log = deps.logger.child({ pipeline_run_id: child.pipeline_run_id, job_id: job.id, step_path: stepPath });
    const hold = deps.controls.hold({
      pipelineRunId: child.pipeline_run_id,
      requestId: child.request_id,
      createdAt: child.created_at,
    });
    try {
      if (hold.signal.aborted) {
        // its run was stopped before the child was taken (docs/cancellation.md): it does not start
        log.info('child:skipped: its run was stopped');
        return childResultValue(failed(hold.signal.reason, deps.docsUrl));
      }
      const result = await traceConsumedJob(
        {
          queue: CHILD_QUEUE,
          jobId: job.id,
          runId: child.pipeline_run_id,
          attempt: job.attemptsMade + 1,
          traceParent: child.trace_parent,
          attributes: { 'mthds.pipe.ref': child.child.pipeRef, 'mthds.step_path': stepPath },
        },
        () => runChild(child, job, hold, signal),
      );
      if (result.ok) log.info('child:completed');
      else log.info({ error_type: result.error.error_type }, `child:failed: ${result.error.message}`);
      return childResultValue(result);
    } finally {
      hold.release();
    }
  };

  /** Run a child under its run's hold (a stop of the run aborts it) and the worker's signal. */
  async function runChild(
    child: ChildJob,
    job: Job,
    hold: RunHold,
    signal: AbortSignal | undefined,
  ): Promise<ChildResult> {
    let context: RunContext;
    try {
      context = await contextOf(child);
    } catch (error) {
      // its run's payload cannot be read for now (Redis or the object store unreachable): a retryable failure, so the
      // run's job is retried and its retake runs this child again, rather than the run failing as crashed
      if (error instanceof MthdsError && error.retryable === true) return failed(error, deps.docsUrl);
      throw error;
    }
    const submission = context.submission;
    // a child of a run's first attempt, taken for the first time, has no checkpoints to replay
    const checkpoints = context.checkpoints(!(child.first_attempt === true && job.stalledCounter === 0));
    try {
      const run = await executeChild(submission, child.child, {
        ...(checkpoints ? { checkpoints } : {}),
        inference: deps.inference,
        extractor: deps.extractor,
        templates: deps.templates,
        ids: deps.ids,
        now: deps.now,
        batchConcurrency: deps.batchConcurrency,
        signal: signal ? AbortSignal.any([signal, hold.signal]) : hold.signal,
      });
      return run.ok ? run : { ok: false, error: toErrorReport(run.error, deps.docsUrl), report: run.report };
    } catch (error) {
      return failed(error, deps.docsUrl);
    }
  }
}

/** The result of a child that failed before it reported anything. */
function failed(error: unknown, docsUrl: string): ChildResult {
  return {
    ok: false,
    error: toErrorReport(error, docsUrl),
    report: { usage: [], progress: [], graph: { nodes: [], contains: [], finished: [], pipes: [] }, pipes: 0 },
  };
}
