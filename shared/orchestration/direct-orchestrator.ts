/**
 * The `direct` orchestrator: runs in the API process. Blocking only, so `/v1/start` answers 400
 * `StartRequiresAsyncOrchestration` on it (spec §4.4). Each run it accepts gets a run record and events, as a queued
 * run does (docs/api.md#run-lifecycle): `RUNNING` once its check passed, then `COMPLETED` with its result or
 * `FAILED` with its error report, so `GET /v1/runs/{id}/status`, `/results` and `/events` serve it. A run is held while
 * it runs: a cancel, or its deadline, stops it in this process (`CANCELLED`, `TIMED_OUT`: docs/cancellation.md), and
 * its end is recorded once, whichever of its own end and a stop comes first.
 */
import { errorFromReport, PipelexUnexpectedError, toErrorReport } from '../errors/index.js';
import type { Library } from '../mthds/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import type { DocumentExtractorPort, IdSource, InferencePort, TemplateRenderer } from '../runtime/index.js';
import type { RunResult } from '../wire/index.js';
import { armDeadline, type RunControls, type RunStopper, runDeadline, runRefOf, stopStateOf } from './control/index.js';
import { RUN_EVENT_LINGER_MS, type RunEventLog, RunProgressTracker, runError } from './events/index.js';
import type { Orchestrator, RunBundleChecker } from './orchestrator.js';
import type { RunRecord, RunStore } from './registry/index.js';
import { countRejection } from './run-rejections.js';
import { inlineStorageRefs, inputNamesOf, type RunObjects } from './storage/index.js';
import {
  acceptedRecord,
  executeSubmission,
  historyFacts,
  type RunSubmission,
  submissionIOArtifacts,
  submissionSnapshot,
} from './submission.js';
import { instrumentedObserver } from './tracing/index.js';

/** What the direct orchestrator needs. */
export interface DirectOrchestratorDeps {
  inference: InferencePort;
  extractor: DocumentExtractorPort;
  templates: TemplateRenderer;
  ids: IdSource;
  /** Clock, epoch ms. */
  now(): number;
  /**
   * Counts runs (`mthds_runs_*`, mode `direct`): every run taken is started, then finished or, for a caller error such
   * as an invalid bundle or input, rejected.
   */
  metrics: Metrics;
  /** Checks the run (bundles, pipe, inputs) before it gets a record. */
  bundles: RunBundleChecker;
  /** Where its run records go: the Redis registry with a queue backend, else the in-memory store. */
  runs: RunStore;
  /** Where its run events go, likewise. */
  events: RunEventLog;
  /** Base of error `type_uri`s in reports. */
  docsUrl: string;
  /** Logs an event append that failed (the run goes on), and a finished run that could not be kept in storage. */
  logger: Logger;
  /** Where finished runs are kept beyond their record, under their `storage_scope` (docs/storage.md). */
  objects: RunObjects;
  /** Most children of a controller running at once (`BATCH_MAX_PARALLEL`; the runtime's default when absent). */
  batchConcurrency?: number;
  /** Most pipes one run starts (`RUN_MAX_PIPES`; the runtime's default when absent). */
  maxPipes?: number;
  /** Keep each run as it was sent (`submissions/`), for its history: set when the app has a control plane. */
  keepSubmissions?: boolean;
  /** The runs this process holds: a stop of a run aborts it (docs/cancellation.md). */
  controls: RunControls;
  /** Stops a run at its deadline (`timeout_seconds`, docs/cancellation.md#deadlines). */
  stopper: RunStopper;
}

/**
 * Build the direct orchestrator. The run is checked by the bundle checker (the API's diagnostics threads, off the event
 * loop): what fails the check is refused without a record. The run itself goes on in this thread, its templates
 * rendered in isolated threads (docs/isolation.md).
 * @param deps - the runtime's ports, metrics, bundle checker, run store, event log, docs URL, logger and run objects
 */
export function directOrchestrator(deps: DirectOrchestratorDeps): Orchestrator {
  /** The finished record as kept in storage (its media moved there), or as it is when the store fails. */
  function keep(record: RunRecord, inputs: unknown): Promise<RunRecord> {
    return deps.objects.saveFinished(record, inputNamesOf(inputs)).catch((error: unknown) => {
      deps.logger.warn(
        { err: error, pipeline_run_id: record.pipeline_run_id },
        'run:result could not be kept in storage; the run record keeps it until RUN_RECORD_TTL_SECONDS',
      );
      return record;
    });
  }

  /** The error of a run whose end was recorded by someone else meanwhile (a stop), its copy in storage rewritten. */
  async function endedElsewhere(runId: string, inputs: unknown): Promise<Error> {
    const recorded = await deps.runs.get(runId);
    if (recorded) await keep(recorded, inputs);
    return recorded?.error
      ? errorFromReport(recorded.error)
      : new PipelexUnexpectedError(`Run ${runId} ended elsewhere without an error report.`);
  }

  async function run(submission: RunSubmission, signal: AbortSignal): Promise<RunResult> {
    const library = await deps.bundles.load(submission, signal);
    const reader = { owner: submission.owner, scope: submission.storageScope };
    const inputs = await inlineStorageRefs(submission.inputs, deps.objects.store, reader);
    const runId = submission.pipelineRunId;
    const createdAt = deps.now();
    const running: RunRecord = {
      ...acceptedRecord(submission, null, createdAt, historyFacts(submission)),
      state: 'RUNNING',
      started_at: new Date(createdAt).toISOString(),
      attempts: 1,
    };
    await deps.runs.save(running);
    // held while it runs: a cancel, or its deadline, aborts it (docs/cancellation.md)
    const hold = deps.controls.hold(runRefOf(running), signal);
    const deadline = runDeadline(createdAt, submission.timeoutSeconds);
    const disarm =
      deadline === undefined
        ? undefined
        : armDeadline(deadline, deps.now, () => {
            deps.stopper
              .stop([{ pipelineRunId: runId }], 'TIMED_OUT')
              .catch((error: unknown) =>
                deps.logger.warn({ err: error, pipeline_run_id: runId }, 'run:timeout could not be recorded'),
              );
          });
    try {
      return await attempt(submission, inputs, library, running, hold.signal);
    } finally {
      disarm?.();
      hold.release();
    }
  }

  async function attempt(
    submission: RunSubmission,
    inputs: unknown,
    library: Library,
    running: RunRecord,
    signal: AbortSignal,
  ): Promise<RunResult> {
    const runId = submission.pipelineRunId;
    const kept = deps.keepSubmissions
      ? deps.objects.submissions.save(submission.storageScope, runId, submissionSnapshot(submission))
      : undefined;
    const tracker = new RunProgressTracker({
      events: deps.events,
      runId,
      now: deps.now,
      onError: (error) => deps.logger.warn({ err: error, pipeline_run_id: runId }, 'run:event could not be stored'),
      lingerMs: RUN_EVENT_LINGER_MS,
    });
    tracker.runStarted(submission.pipeCode, 1);
    try {
      const result = await executeSubmission(
        { ...submission, inputs },
        {
          inference: deps.inference,
          extractor: deps.extractor,
          templates: deps.templates,
          ids: deps.ids,
          now: deps.now,
          signal,
          observer: instrumentedObserver(tracker, deps.metrics),
          ...(deps.batchConcurrency ? { batchConcurrency: deps.batchConcurrency } : {}),
          ...(deps.maxPipes ? { maxPipes: deps.maxPipes } : {}),
        },
        library,
      );
      // the events still to come go with the run's end
      tracker.holdForEnd();
      await kept;
      const completed = await keep(
        // not `{ ...running, state, … }` (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path)
        Object.assign({}, running, {
          state: 'COMPLETED' as const,
          finished_at: result.finished_at,
          result,
          io_artifacts: submissionIOArtifacts(submission, library),
        }),
        submission.inputs,
      );
      const events = await tracker.finishing(null);
      if ((await deps.runs.finishOnce(completed, { release: true, events })) === 'already_finished')
        throw await endedElsewhere(runId, submission.inputs);
      return result;
    } catch (error) {
      await tracker.flush();
      await kept;
      // a stop recorded the run's end (docs/cancellation.md): its error is the run's
      if (signal.aborted && stopStateOf(signal.reason)) throw signal.reason;
      if (stopStateOf(error)) throw error;
      const report = { ...toErrorReport(error, deps.docsUrl), pipe_code: tracker.failingPipeCode };
      const failed = await keep(
        {
          ...running,
          state: 'FAILED',
          finished_at: new Date(deps.now()).toISOString(),
          error: report,
          ...(tracker.runUsage ? { usage: tracker.runUsage } : {}),
        },
        submission.inputs,
      );
      const events = await tracker.finishing(runError(report));
      if ((await deps.runs.finishOnce(failed, { release: true, events })) === 'already_finished')
        throw await endedElsewhere(runId, submission.inputs);
      throw error;
    }
  }

  return {
    mode: 'direct',
    async execute(submission, signal) {
      const started = deps.now();
      deps.metrics.runsStarted.inc({ mode: 'direct', delivery: 'blocking' });
      const finished = (state: 'COMPLETED' | 'FAILED') => {
        deps.metrics.runsFinished.inc({ state });
        deps.metrics.runDuration.observe({ state }, (deps.now() - started) / 1000);
      };
      const result = await run(submission, signal).catch((error: unknown) => {
        // a stopped run is counted by its stop
        if (!stopStateOf(error) && !countRejection(deps.metrics, 'direct', error)) finished('FAILED');
        throw error;
      });
      finished('COMPLETED');
      return result;
    },
  };
}
