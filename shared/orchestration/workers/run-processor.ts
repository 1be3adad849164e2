/**
 * The run job processor: validate the payload, run the bundle, record the outcome in the run registry, free the run
 * id and enqueue the completion callbacks (CONTRIBUTING.md#16-thin-processors: parse, build deps, call the runtime, map
 * the outcome).
 * Each attempt publishes its events to the run event log (`run:started`, the pipes' events, and on the last attempt
 * `run:finished`: with the record when the run completes, after it when it fails; docs/run-events.md).
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
 *
 * Stops (docs/cancellation.md): the run is held in this process from before its admission to the end of its attempt,
 * so a cancel recorded after the admission aborts the attempt; a run with `timeout_seconds` is stopped `TIMED_OUT` at its
 * deadline, at once (without running) when the deadline passed while it was queued.
 *
 * This module admits a job and loads its payload; the attempt itself is `run-attempt.ts`, and what the processor needs
 * is `run-processor-deps.ts`.
 */
import { type Job, UnrecoverableError } from 'bullmq';
import { toErrorReport } from '../../errors/index.js';
import { withCrashContext } from '../../lifecycle/index.js';
import { armDeadline } from '../control/index.js';
import { QUEUED_RUN_JOB, type QueuedRunJob, RUN_QUEUE, type RunJob } from '../queue/index.js';
import type { RunRecord } from '../registry/index.js';
import { acceptedRecordOfJob } from '../submission.js';
import { traceConsumedJob } from '../tracing/index.js';
import { refuseJob } from './job-refusal.js';
import { processRun } from './run-attempt.js';
import { recordRunFailure } from './run-failure.js';
import type { RunJobOutcome, RunProcessorDeps } from './run-processor-deps.js';

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
    const traced = {
      queue: RUN_QUEUE,
      jobId: job.id,
      runId: queued.pipeline_run_id,
      attempt: job.attemptsMade + 1,
      traceParent: queued.trace_parent,
    };
    return traceConsumedJob(traced, () =>
      withCrashContext(
        { request_id: queued.request_id, pipeline_run_id: queued.pipeline_run_id, job_id: job.id ?? null },
        async () => {
          // held before its admission, so a stop recorded after the admission reaches this attempt
          const hold = deps.controls.hold(
            { pipelineRunId: queued.pipeline_run_id, requestId: queued.request_id, createdAt: queued.created_at },
            signal,
          );
          try {
            const running = await admit(deps, job, queued);
            return await untilDeadline(deps, queued, async () => {
              return processRun(deps, job, queued, running, await loadPayload(deps, job, queued), hold.signal);
            });
          } finally {
            hold.release();
          }
        },
      ),
    );
  };
}

/**
 * Run an admitted job's attempt before its deadline (docs/cancellation.md#deadlines): a run whose deadline passed
 * while it waited is stopped `TIMED_OUT` without running; otherwise the deadline stops it if it is still running then.
 * @throws UnrecoverableError when the run timed out before it ran; whatever the attempt throws
 */
async function untilDeadline(
  deps: RunProcessorDeps,
  queued: QueuedRunJob,
  attempt: () => Promise<RunJobOutcome>,
): Promise<RunJobOutcome> {
  const deadline = queued.deadline_at;
  if (deadline === undefined) return attempt();
  const timeOut = () => deps.stopper.stop([{ pipelineRunId: queued.pipeline_run_id, job: queued }], 'TIMED_OUT');
  if (deadline <= deps.now()) {
    await timeOut();
    throw new UnrecoverableError(`RunTimedOutError: run '${queued.pipeline_run_id}' waited past its deadline`);
  }
  const disarm = armDeadline(deadline, deps.now, () => {
    timeOut().catch((error: unknown) =>
      deps.logger.warn({ err: error, pipeline_run_id: queued.pipeline_run_id }, 'run:timeout could not be recorded'),
    );
  });
  try {
    return await attempt();
  } finally {
    disarm();
  }
}

/**
 * Admit a job: its RUNNING record is stored when the job is the run accepted under its id and the run has not
 * finished (one script), else the job is refused.
 * @returns the RUNNING record
 * @throws UnrecoverableError (QueueJobRefusedError) when the job is refused
 */
async function admit(deps: RunProcessorDeps, job: Job, queued: QueuedRunJob): Promise<RunRecord> {
  // the accepted record, made for this, completed in place (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path)
  const running: RunRecord = Object.assign(acceptedRecordOfJob(queued, job.id ?? ''), {
    state: 'RUNNING' as const,
    started_at: new Date(deps.now()).toISOString(),
    attempts: job.attemptsMade + 1,
    ...(job.stalledCounter > 0 ? { quarantined: true } : {}),
  });
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
