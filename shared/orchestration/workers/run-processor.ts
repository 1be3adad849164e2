/**
 * The run job processor: validate the payload, run the bundle, record the outcome in the run registry, free the run
 * id and enqueue the completion callbacks (CONTRIBUTING.md#16-thin-processors: parse, build deps, call the runtime, map
 * the outcome).
 * Each attempt publishes its events to the run event log (`run:started`, the pipes' events, and on the last attempt
 * `run:finished` after the record; docs/run-events.md).
 *
 * Retry policy (CONTRIBUTING.md#12-retries-follow-retryable): a retryable failure (a transient provider error) is
 * thrown back to BullMQ, which
 * retries with backoff; any other failure, or the last attempt, records FAILED and ends the job as unrecoverable.
 * A run finishes once (docs/run-failures.md): its end is written only if the run has not ended yet, in one atomic
 * step, so an attempt whose job was failed meanwhile (its worker lost the lock) leaves that end as it is.
 *
 * Step checkpoints (docs/checkpoints.md): every attempt, in process or in quarantine, keeps the checkpoint of each
 * operator it finishes and replays those an earlier attempt of the same submission kept, so a retake (a retryable
 * failure, a dead worker) makes no inference call for a finished step. A finished run's checkpoints are dropped.
 *
 * Admission (docs/run-ownership.md#queue-jobs): a job is acted on only when its seal verifies and its run is the one
 * the API accepted under its id and has not finished; the RUNNING record is written by the same script that checks
 * this, before anything else (payload, events, run). Any other job is refused: nothing is run, recorded or delivered.
 *
 * Quarantine (docs/run-failures.md): a job BullMQ retook after its worker process died (`job.stalledCounter > 0`)
 * runs in a quarantine process with resource limits instead of in this process; if that process dies, the run fails
 * with `RunCrashedError` and is never retaken.
 */
import { type Job, UnrecoverableError } from 'bullmq';
import { toErrorReport } from '../../errors/index.js';
import { withCrashContext } from '../../lifecycle/index.js';
import type { Logger, Metrics } from '../../observability/index.js';
import type {
  DocumentExtractorPort,
  FanOutPort,
  IdSource,
  InferencePort,
  RunObserver,
  TemplateRenderer,
} from '../../runtime/index.js';
import type { RunResult } from '../../wire/index.js';
import { successPayload } from '../callbacks/index.js';
import type { RunCheckpoints } from '../checkpoints/index.js';
import { type RunEventLog, RunProgressTracker } from '../events/index.js';
import {
  type CallbackQueue,
  type FanOutRun,
  type JobSeals,
  QUEUED_RUN_JOB,
  type QueuedRunJob,
  RUN_QUEUE,
  type RunJob,
} from '../queue/index.js';
import type { RunRecord, RunStore } from '../registry/index.js';
import { inputNamesOf, type RunObjects } from '../storage/index.js';
import { acceptedRecordOfJob, executeSubmission, type RunSubmission, submissionOfJob } from '../submission.js';
import { refuseJob } from './job-refusal.js';
import { recordRunFailure } from './run-failure.js';

/** What the processor needs. */
export interface RunProcessorDeps {
  registry: RunStore;
  /** Where each attempt's events go (docs/run-events.md). */
  events: RunEventLog;
  callbacks: CallbackQueue;
  /** Verifies the seal of each job before it is acted on (docs/run-ownership.md#queue-jobs). */
  seals: JobSeals;
  inference: InferencePort;
  extractor: DocumentExtractorPort;
  /** Renders the runs' templates (in isolated threads, docs/isolation.md#templates). */
  templates: TemplateRenderer;
  ids: IdSource;
  now(): number;
  logger: Logger;
  metrics: Metrics;
  /** Base of error `type_uri`s in reports. */
  docsUrl: string;
  /** Where offloaded payloads are read and finished runs kept (docs/storage.md). */
  objects: RunObjects;
  /** The runs' step checkpoints (docs/checkpoints.md); an in-process attempt reads and writes them. */
  checkpoints: RunCheckpoints;
  /**
   * Run a job in quarantine (a separate process with resource limits), its pipe reports forwarded to `observer`.
   * @throws RunCrashedError when the quarantine process dies; the run's own error otherwise
   */
  runQuarantined(payload: RunJob, runJobId: string, observer: RunObserver, signal?: AbortSignal): Promise<RunResult>;
  /** Most children of a controller running at once (`BATCH_MAX_PARALLEL`; the runtime's default when absent). */
  batchConcurrency?: number;
  /** Most pipes one run starts, its children's included (`RUN_MAX_PIPES`; the runtime's default when absent). */
  maxPipes?: number;
  /**
   * The fan-out port of a run (docs/fan-out.md): its batch items and parallel branches run as child jobs; in-process
   * when absent (`RUN_FAN_OUT=false`, and always in quarantine).
   */
  fanOut?(run: FanOutRun): FanOutPort;
}

/** The outcome a run job returns to BullMQ. */
export interface RunJobOutcome {
  state: 'COMPLETED';
}

/**
 * Build the processor.
 * @param deps - registry, callback queue, runtime ports, logger and metrics
 */
export function createRunProcessor(
  deps: RunProcessorDeps,
): (job: Job, token?: string, signal?: AbortSignal) => Promise<RunJobOutcome> {
  return async (job, _token, signal) => {
    const opened = await deps.seals.open(RUN_QUEUE, job.data);
    if (!opened) throw refuseJob(deps, RUN_QUEUE, job, 'seal');
    const parsed = QUEUED_RUN_JOB.safeParse(opened);
    if (!parsed.success) throw new UnrecoverableError(`invalid run job payload: ${parsed.error.message}`);
    const queued = parsed.data;
    return withCrashContext(
      { request_id: queued.request_id, pipeline_run_id: queued.pipeline_run_id, job_id: job.id ?? null },
      async () => {
        const running = await admit(deps, job, queued);
        return processRun(deps, job, queued, running, await loadPayload(deps, job, queued), signal);
      },
    );
  };
}

/**
 * Admit a job: its RUNNING record is stored when the job is the run accepted under its id and the run has not
 * finished (one script), else the job is refused.
 * @returns the RUNNING record
 * @throws UnrecoverableError (QueueJobRefusedError) when the job is refused
 */
async function admit(deps: RunProcessorDeps, job: Job, queued: QueuedRunJob): Promise<RunRecord> {
  const running: RunRecord = {
    ...acceptedRecordOfJob(queued, job.id ?? ''),
    state: 'RUNNING',
    started_at: new Date(deps.now()).toISOString(),
    ...(job.stalledCounter > 0 ? { quarantined: true } : {}),
  };
  const admission = await deps.registry.admit(running);
  if (admission !== 'admitted') throw refuseJob(deps, RUN_QUEUE, job, admission);
  return running;
}

/**
 * The whole payload of a queued job (an offloaded one read from storage, its inputs' references inlined). A store
 * that fails is retried as a transient failure; a payload that is gone fails the run for good.
 */
async function loadPayload(deps: RunProcessorDeps, job: Job, queued: QueuedRunJob): Promise<RunJob> {
  try {
    return await deps.objects.loadJob(queued);
  } catch (error) {
    const report = { ...toErrorReport(error, deps.docsUrl), pipe_code: null };
    if (report.retryable && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw error;
    await recordRunFailure(deps, queued, report);
    throw new UnrecoverableError(`${report.error_type}: ${report.message}`);
  }
}

/** Logged by an attempt that reaches a run's end after the run already ended (docs/run-failures.md). */
const ALREADY_ENDED =
  'run:already ended: its job was failed while this attempt went on (its worker lost the job lock), and the end recorded first stands';

/**
 * An attempt that completed after its run had already ended: the run's end stays as recorded, and the copy kept in
 * storage, which this attempt had just replaced with its own, is written back from the record.
 */
async function keepEndAsRecorded(deps: RunProcessorDeps, runId: string, inputs: unknown, log: Logger): Promise<void> {
  log.warn(`${ALREADY_ENDED}; this attempt's result is dropped`);
  const recorded = await deps.registry.get(runId);
  if (recorded) await keepFinished(deps, recorded, inputs, log);
}

/** A finished record as kept in storage (its media moved there), or as it is when the store fails. */
function keepFinished(deps: RunProcessorDeps, record: RunRecord, inputs: unknown, log: Logger): Promise<RunRecord> {
  return deps.objects.saveFinished(record, inputNamesOf(inputs)).catch((error: unknown) => {
    log.warn(
      { err: error },
      'run:result could not be kept in storage; the run record keeps it until RUN_RECORD_TTL_SECONDS',
    );
    return record;
  });
}

function runInProcess(
  deps: RunProcessorDeps,
  payload: RunJob,
  retake: boolean,
  submission: RunSubmission,
  observer: RunObserver,
  signal: AbortSignal | undefined,
  fanOut: FanOutPort | undefined,
): Promise<RunResult> {
  const checkpoints = deps.checkpoints.forRun(payload, retake);
  return executeSubmission(submission, {
    inference: deps.inference,
    extractor: deps.extractor,
    templates: deps.templates,
    ids: deps.ids,
    now: deps.now,
    observer,
    ...(signal ? { signal } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    ...(deps.batchConcurrency ? { batchConcurrency: deps.batchConcurrency } : {}),
    ...(deps.maxPipes ? { maxPipes: deps.maxPipes } : {}),
    ...(fanOut ? { fanOut } : {}),
  });
}

async function processRun(
  deps: RunProcessorDeps,
  job: Job,
  queued: QueuedRunJob,
  running: RunRecord,
  payload: RunJob,
  signal: AbortSignal | undefined,
): Promise<RunJobOutcome> {
  const runId = payload.pipeline_run_id;
  const quarantined = job.stalledCounter > 0;
  const submission = submissionOfJob(payload);
  const log = deps.logger.child({
    request_id: payload.request_id,
    pipeline_run_id: runId,
    job_id: job.id,
    attempt: job.attemptsMade + 1,
    quarantined,
  });
  const tracker = new RunProgressTracker({
    events: deps.events,
    runId,
    now: deps.now,
    onError: (error) => log.warn({ err: error }, 'run:event could not be stored'),
  });
  tracker.runStarted(payload.pipe_code, job.attemptsMade + 1);
  let replayedSteps = 0;
  const observer: RunObserver = {
    pipeProgress: (progress) => {
      if (progress.kind === 'finished' && progress.replayed) {
        replayedSteps += 1;
        deps.metrics.stepsReplayed.inc();
      }
      tracker.pipeProgress(progress);
    },
  };
  log.info('run:started');
  if (quarantined)
    log.warn(
      { stalled_count: job.stalledCounter },
      'run:quarantined: its worker process died during an earlier attempt; this retake runs in a quarantine process with resource limits',
    );
  try {
    const result = quarantined
      ? await deps.runQuarantined(payload, job.id ?? '', observer, signal)
      : await runInProcess(
          deps,
          payload,
          job.attemptsMade > 0,
          submission,
          observer,
          signal,
          deps.fanOut?.({
            pipelineRunId: runId,
            requestId: payload.request_id,
            runJobId: job.id ?? '',
            createdAt: payload.created_at,
            retake: job.attemptsMade > 0,
          }),
        );
    const completed = await keepFinished(
      deps,
      { ...running, state: 'COMPLETED', finished_at: result.finished_at, result },
      payload.inputs,
      log,
    );
    // the record shows COMPLETED before `run:finished` and before any callback can reach a receiver that reads the
    // run's status; the id is freed with it, or after the callbacks are enqueued
    const finish = await deps.registry.finishOnce(completed, { release: payload.callback_urls.length === 0 });
    if (finish === 'already_finished') {
      await keepEndAsRecorded(deps, runId, payload.inputs, log);
      return { state: 'COMPLETED' };
    }
    await tracker.finish(null);
    if (payload.callback_urls.length > 0) {
      const body = successPayload(result);
      await deps.callbacks.enqueue(
        payload.callback_urls.map((url) => ({ pipeline_run_id: runId, request_id: payload.request_id, url, body })),
      );
      await deps.registry.release(runId);
    }
    await Promise.all([
      deps.objects
        .dropPayload(queued)
        .catch((error: unknown) => log.warn({ err: error }, 'run:payload could not be dropped from storage')),
      deps.checkpoints
        .drop(runId)
        .catch((error: unknown) => log.warn({ err: error }, 'run:checkpoints could not be dropped')),
    ]);
    deps.metrics.runsFinished.inc({ state: 'COMPLETED' });
    deps.metrics.runDuration.observe({ state: 'COMPLETED' }, (deps.now() - payload.created_at) / 1000);
    log.info({ replayed_steps: replayedSteps }, 'run:completed');
    return { state: 'COMPLETED' };
  } catch (error) {
    const report = { ...toErrorReport(error, deps.docsUrl), pipe_code: tracker.failingPipeCode };
    const lastAttempt = !report.retryable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    await tracker.flush();
    if (!lastAttempt) {
      log.warn(
        { error_type: report.error_type, replayed_steps: replayedSteps },
        `run:retrying after ${report.error_type}: ${report.message}`,
      );
      throw error;
    }
    if (await recordRunFailure(deps, queued, report))
      log.warn({ error_type: report.error_type, err: error }, `run:failed: ${report.message}`);
    else log.warn({ error_type: report.error_type }, `${ALREADY_ENDED}; this attempt's failure is not recorded`);
    throw new UnrecoverableError(`${report.error_type}: ${report.message}`);
  }
}
