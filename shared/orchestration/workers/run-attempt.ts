/**
 * One attempt at a run job, once admitted and its payload loaded (docs/run-failures.md, docs/run-events.md): the run
 * in this process or in quarantine, its events published, its end recorded once (a completed run kept in storage, its
 * callbacks sent, its payload dropped, its step checkpoints dropped with its end), or its failure thrown back to BullMQ
 * for a retry or recorded on the last attempt. An attempt aborted by a stop of its run (docs/cancellation.md) records nothing: the
 * stop is the run's end.
 */
import { type Job, UnrecoverableError } from 'bullmq';
import { toErrorReport } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import type { FanOutPort, RunObserver } from '../../runtime/index.js';
import type { RunResult } from '../../wire/index.js';
import { successPayload } from '../callbacks/index.js';
import type { RunCheckpointStore } from '../checkpoints/index.js';
import { stopStateOf } from '../control/index.js';
import { RUN_EVENT_LINGER_MS, RunProgressTracker } from '../events/index.js';
import type { QueuedRunJob, RunJob } from '../queue/index.js';
import type { RunRecord } from '../registry/index.js';
import { inputNamesOf } from '../storage/index.js';
import {
  executeSubmission,
  type RunSubmission,
  submissionIOArtifacts,
  submissionOfJob,
  submissionSnapshot,
} from '../submission.js';
import { instrumentedObserver } from '../tracing/index.js';
import { recordRunFailure } from './run-failure.js';
import type { RunJobOutcome, RunProcessorDeps } from './run-processor-deps.js';

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
  checkpoints: RunCheckpointStore | undefined,
  submission: RunSubmission,
  observer: RunObserver,
  signal: AbortSignal | undefined,
  fanOut: FanOutPort | undefined,
): Promise<RunResult> {
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

/**
 * Run an admitted job's attempt and record its end.
 * @param deps - the processor's dependencies
 * @param job - the BullMQ job
 * @param queued - the job's payload as queued (an offloaded one's reference included)
 * @param running - the run's RUNNING record, written at admission
 * @param payload - the whole payload
 * @param signal - aborts the run: the worker closing, or a stop of the run (its cancel, its deadline), whose end the
 *   stop records
 * @returns `COMPLETED` (also when the run had already ended: that end stands)
 * @throws the run's error when it is retryable and attempts remain; UnrecoverableError once the failure is recorded
 */
export async function processRun(
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
    lingerMs: RUN_EVENT_LINGER_MS,
  });
  tracker.runStarted(payload.pipe_code, job.attemptsMade + 1);
  // the run as sent, for its history, written while the run goes on and awaited before its end is recorded
  const kept = payload.history?.keep_submission
    ? deps.objects.submissions.save(payload.storage_scope, runId, submissionSnapshot(submission))
    : undefined;
  let replayedSteps = 0;
  const observer: RunObserver = instrumentedObserver(
    {
      pipeProgress: (progress) => {
        if (progress.kind === 'finished' && progress.replayed) {
          replayedSteps += 1;
          deps.metrics.stepsReplayed.inc();
        }
        tracker.pipeProgress(progress);
      },
    },
    deps.metrics,
  );
  log.info('run:started');
  if (quarantined)
    log.warn(
      { stalled_count: job.stalledCounter },
      'run:quarantined: its worker process died during an earlier attempt; this retake runs in a quarantine process with resource limits',
    );
  // written behind the run: the attempt waits for its checkpoints before recording a failure or a stop; once its result
  // is in hand, it drops those not yet written
  const checkpoints = quarantined
    ? undefined
    : deps.checkpoints.forRun(payload, job.attemptsMade > 0, { behind: true });
  try {
    const result = quarantined
      ? await deps.runQuarantined(payload, job.id ?? '', observer, signal)
      : await runInProcess(
          deps,
          checkpoints,
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
    // the events still to come go with the run's end; no retry reads a completed run's checkpoints: those it still
    // holds are not written (its end drops the others)
    tracker.holdForEnd();
    const completed = await keepFinished(
      deps,
      // not `{ ...running, state, … }` (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path)
      Object.assign({}, running, {
        state: 'COMPLETED' as const,
        finished_at: result.finished_at,
        result,
        io_artifacts: submissionIOArtifacts(submission),
      }),
      payload.inputs,
      log,
    );
    // the submission and the checkpoint writes under way end before the end is recorded; then the record shows
    // COMPLETED, with every event of the run up to `run:finished`, the id is freed and the step checkpoints dropped, in
    // one step and before any callback can reach a receiver that reads the run's status or events
    const [events] = await Promise.all([tracker.finishing(null), kept, checkpoints?.abandon()]);
    const body = payload.callback_urls.length > 0 ? successPayload(result) : undefined;
    const finish = await deps.registry.finishOnce(completed, { release: true, events, dropCheckpoints: true });
    if (finish === 'already_finished') {
      await keepEndAsRecorded(deps, runId, payload.inputs, log);
      return { state: 'COMPLETED' };
    }
    if (body !== undefined) {
      await deps.callbacks.send(
        payload.callback_urls.map((url) => ({ pipeline_run_id: runId, request_id: payload.request_id, url, body })),
      );
    }
    await deps.objects
      .dropPayload(queued)
      .catch((error: unknown) => log.warn({ err: error }, 'run:payload could not be dropped from storage'));
    deps.metrics.runsFinished.inc({ state: 'COMPLETED' });
    deps.metrics.runDuration.observe({ state: 'COMPLETED' }, (deps.now() - payload.created_at) / 1000);
    log.info({ replayed_steps: replayedSteps }, 'run:completed');
    return { state: 'COMPLETED' };
  } catch (error) {
    const stop: unknown = signal?.aborted ? signal.reason : undefined;
    const stopped = stopStateOf(stop);
    if (stopped) {
      // the stop recorded the run's end (docs/cancellation.md): this attempt only winds down
      await Promise.all([tracker.flush(), kept, checkpoints?.settled()]);
      log.info({ replayed_steps: replayedSteps }, `run:stopped (${stopped}): the attempt was aborted`);
      throw new UnrecoverableError(`${(stop as Error).name}: ${(stop as Error).message}`);
    }
    const report = { ...toErrorReport(error, deps.docsUrl), pipe_code: tracker.failingPipeCode };
    const lastAttempt = !report.retryable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    await Promise.all([tracker.flush(), kept, checkpoints?.settled()]);
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
