/**
 * Stopping runs (docs/cancellation.md): a run its owner cancels, a run past its deadline. A stop is the run's end,
 * recorded through the run store's finish-once step, so a run ends once: of a stop and the run's own end (it completed,
 * it failed), whichever is recorded first stands. Once recorded, the stop
 *
 * - is announced to every process holding a piece of the run, which aborts it (its provider calls in flight, its
 *   fanned-out children; no further call is made), and a queued job no worker holds yet is removed from the queue (a
 *   worker that takes it anyway finds its run finished at admission and refuses it);
 * - has published the run's terminal `run:finished` event with the stop's status (written with the stopped record, in
 *   one step), enqueues its callbacks (the failure body, `state` `CANCELLED` or `TIMED_OUT`), keeps the stopped record
 *   in storage and its payload for its retries, frees the run id and counts the run in
 *   `mthds_runs_finished_total{state}`.
 *
 * The stopped record keeps the run's usage so far (as of the last pipe that ended, as a failed run's does) and an error
 * report, the stop's (`RunCancelledError`, `RunTimedOutError`), with the pipe that was running as its `pipe_code`. A
 * stopped run's step checkpoints are kept, as a failed run's are (docs/checkpoints.md).
 *
 * Runs are stopped in batches: each step is one round of Redis commands for the whole batch (the registry's connection
 * pipelines the commands issued together; the stop is published once per batch), never a round trip per run.
 */
import { type ErrorReport, toErrorReport } from '../../errors/index.js';
import type { Logger, Metrics } from '../../observability/index.js';
import { failurePayload } from '../callbacks/callback-payload.js';
import { type RunEventBatch, type RunEventLog, type RunProgress, runError, runFinishedEvent } from '../events/index.js';
import type { CallbackJob, QueuedRunJob } from '../queue/job-payloads.js';
import type { RunRecord, RunStore } from '../registry/index.js';
import { keepPayloadForRetry, type RunObjects } from '../storage/index.js';
import { type RunRef, type RunStopState, runStopError } from './run-stop.js';
import type { StopBroadcast } from './stop-broadcast.js';

/** Runs stopped per batch. */
const BATCH = 250;

/** The queued jobs of runs (queue mode), as a stop needs them. */
export interface StoppableJobs {
  /**
   * The payloads of jobs, their seals verified.
   * @param jobIds - the jobs' ids (the runs' `workflow_id`s)
   * @returns each job's payload, or undefined for a job that is gone or carries no valid seal
   */
  payloads(jobIds: readonly string[]): Promise<(QueuedRunJob | undefined)[]>;
  /**
   * Remove the jobs no worker holds (waiting, delayed, prioritized); a job a worker holds is left to it.
   * @param jobIds - the jobs' ids
   */
  removeWaiting(jobIds: readonly string[]): Promise<void>;
}

/** What the stopper needs. */
export interface RunStopperDeps {
  store: RunStore;
  events: RunEventLog;
  /** Where a stopped run is kept beyond its record, and an offloaded payload dropped. */
  objects: RunObjects;
  /** Counts stopped runs (`mthds_runs_finished_total`, `mthds_run_duration_seconds`). */
  metrics: Metrics;
  /** Logs each stop, and a step after the record that failed. */
  logger: Logger;
  /** Clock, epoch ms. */
  now(): number;
  /** Base of error `type_uri`s in reports. */
  docsUrl: string;
  /** Where a recorded stop is announced. */
  broadcast: StopBroadcast;
  /** The run queue's jobs (queue mode): read for the callbacks, removed when waiting. */
  jobs?: StoppableJobs;
  /** Where callbacks go (queue mode). */
  callbacks?: { enqueue(jobs: CallbackJob[]): Promise<void> };
}

/** A run to stop. */
export interface StopRequest {
  pipelineRunId: string;
  /** Stop it only when this caller owns it (a cancel); whoever owns it when absent (a deadline). */
  owner?: string;
  /**
   * The run's job as queued, when the caller holds it (a worker's own run); read from the queue otherwise. The run is
   * stopped only when its record is this job's submission.
   */
  job?: QueuedRunJob;
}

/**
 * What became of a run asked to stop: `stopped` (this stop is its end), `finished` (it had ended: nothing done), or
 * `unknown` (no record of it, another owner's, or another submission's).
 */
export type StopOutcome = 'stopped' | 'finished' | 'unknown';

/** A run whose stop is being recorded. */
interface Stop {
  index: number;
  record: RunRecord;
  progress: RunProgress | undefined;
  job: QueuedRunJob | undefined;
  report: ErrorReport;
}

/**
 * The terminal `run:finished` of a stop and the progress after it, written with the stopped record (so a run id taken
 * again right after its stop never starts its log with the stop's end).
 * @param stop - the stop
 * @param state - how the run ends
 * @param now - when it is recorded, epoch ms
 */
function endEvents(stop: Stop, state: RunStopState, now: number): RunEventBatch {
  const finishedPipes = stop.progress?.finished_pipes ?? 0;
  const usage = stop.progress?.usage ?? null;
  const event = runFinishedEvent(stop.record.pipeline_run_id, now, finishedPipes, runError(stop.report), state, usage);
  return {
    events: [event],
    progress: { current_pipe: null, finished_pipes: finishedPipes, ...(usage ? { usage } : {}) },
  };
}

function sameSubmission(record: RunRecord, job: QueuedRunJob): boolean {
  return record.request_id === job.request_id && Date.parse(record.created_at) === job.created_at;
}

/**
 * The submission a record is of.
 * @param record - a run record
 */
export function runRefOf(record: RunRecord): RunRef {
  return {
    pipelineRunId: record.pipeline_run_id,
    requestId: record.request_id,
    createdAt: Date.parse(record.created_at),
  };
}

/** Stops runs (see the module comment). */
export class RunStopper {
  /** @param deps - store, events, objects, metrics, logger, clock, docs URL, broadcast; queue jobs and callbacks */
  constructor(private readonly deps: RunStopperDeps) {}

  /**
   * Stop runs, in batches.
   * @param requests - the runs
   * @param state - how they end
   * @returns what became of each, in order
   * @throws QueueUnavailableError (503) when Redis cannot be reached before a batch's stops are recorded
   */
  async stop(requests: readonly StopRequest[], state: RunStopState): Promise<StopOutcome[]> {
    const outcomes: StopOutcome[] = [];
    for (let start = 0; start < requests.length; start += BATCH)
      outcomes.push(...(await this.stopBatch(requests.slice(start, start + BATCH), state)));
    return outcomes;
  }

  private async stopBatch(requests: readonly StopRequest[], state: RunStopState): Promise<StopOutcome[]> {
    const { store, events, docsUrl } = this.deps;
    const outcomes: StopOutcome[] = requests.map(() => 'unknown');
    const records = await Promise.all(requests.map((request) => store.get(request.pipelineRunId)));
    const live: { index: number; record: RunRecord }[] = [];
    for (const [index, request] of requests.entries()) {
      const record = records[index];
      if (!record || (request.owner !== undefined && record.owner !== request.owner)) continue;
      if (request.job && !sameSubmission(record, request.job)) continue;
      if (record.state === 'STARTED' || record.state === 'RUNNING') live.push({ index, record });
      else outcomes[index] = 'finished';
    }
    if (live.length === 0) return outcomes;
    const [progress, jobs] = await Promise.all([
      Promise.all(live.map(({ record }) => events.progress(record.pipeline_run_id))),
      this.jobsOf(live, requests),
    ]);
    const finishedAt = new Date(this.deps.now()).toISOString();
    const stops: Stop[] = live.map(({ index, record }, at) => {
      const run = progress[at];
      const report = {
        ...toErrorReport(runStopError(state, record.pipeline_run_id), docsUrl),
        pipe_code: run?.current_pipe?.pipe_code ?? null,
      };
      const stopped: RunRecord = {
        ...record,
        state,
        finished_at: finishedAt,
        error: report,
        ...(run?.usage ? { usage: run.usage } : {}),
      };
      return { index, record: stopped, progress: run, job: jobs[at], report };
    });
    const now = this.deps.now();
    const finishes = await Promise.all(
      stops.map((stop) =>
        store.finishOnce(stop.record, {
          release: !stop.job?.callback_urls.length,
          events: endEvents(stop, state, now),
        }),
      ),
    );
    const ended = stops.filter((stop, at) => {
      outcomes[stop.index] = finishes[at] === 'recorded' ? 'stopped' : 'finished';
      return finishes[at] === 'recorded';
    });
    if (ended.length > 0) await this.afterStop(ended, state);
    return outcomes;
  }

  /** The queued jobs of the runs, as given or read from the queue; undefined where there is none of their submission. */
  private async jobsOf(
    live: readonly { index: number; record: RunRecord }[],
    requests: readonly StopRequest[],
  ): Promise<(QueuedRunJob | undefined)[]> {
    const given = live.map(({ index }) => requests[index]?.job);
    const { jobs } = this.deps;
    const missing = live.filter(({ record }, at) => !given[at] && record.workflow_id !== null);
    if (!jobs || missing.length === 0) return given;
    const read = await jobs.payloads(missing.map(({ record }) => record.workflow_id!));
    const byRun = new Map(missing.map(({ record }, at) => [record.pipeline_run_id, read[at]]));
    return live.map(({ record }, at) => {
      const job = given[at] ?? byRun.get(record.pipeline_run_id);
      return job && sameSubmission(record, job) ? job : undefined;
    });
  }

  /**
   * What follows a recorded stop (its events went with its record): the announcement, the queue, the callbacks, storage
   * and counts. The stop stands whatever fails here; a failure is logged.
   */
  private async afterStop(stops: readonly Stop[], state: RunStopState): Promise<void> {
    const { logger, metrics, broadcast, jobs } = this.deps;
    const now = this.deps.now();
    const queued = stops.filter((stop) => stop.record.workflow_id !== null).map((stop) => stop.record.workflow_id!);
    const steps: [string, Promise<unknown>][] = [
      [
        'the stop could not be announced',
        broadcast.announce(
          stops.map((stop) => runRefOf(stop.record)),
          state,
        ),
      ],
      ['the stopped runs’ waiting jobs could not be removed', jobs ? jobs.removeWaiting(queued) : Promise.resolve()],
      ['the stopped runs’ callbacks could not be enqueued', this.enqueueCallbacks(stops, state)],
      ['the stopped runs could not be kept in storage', this.keep(stops)],
    ];
    const settled = await Promise.allSettled(steps.map(([, step]) => step));
    for (const [index, outcome] of settled.entries())
      if (outcome.status === 'rejected') logger.warn({ err: outcome.reason }, `run:stop: ${steps[index]![0]}`);
    for (const stop of stops) {
      const duration = (now - Date.parse(stop.record.created_at)) / 1000;
      metrics.runsFinished.inc({ state });
      metrics.runDuration.observe({ state }, duration);
      logger.info(
        { pipeline_run_id: stop.record.pipeline_run_id, pipe_code: stop.report.pipe_code },
        state === 'CANCELLED' ? 'run:cancelled' : 'run:timed out',
      );
    }
  }

  /** Enqueue the stopped runs' callbacks at once, then free the ids the finish-once step left held for them. */
  private async enqueueCallbacks(stops: readonly Stop[], state: RunStopState): Promise<void> {
    const called = stops.filter((stop) => stop.job?.callback_urls.length);
    if (called.length === 0) return;
    const deliveries = called.flatMap(({ record, job, report, progress }) => {
      const runId = record.pipeline_run_id;
      const body = failurePayload(runId, report, progress?.usage ?? null, state);
      return (job?.callback_urls ?? []).map((url) => ({
        pipeline_run_id: runId,
        request_id: record.request_id,
        url,
        body,
      }));
    });
    try {
      await this.deps.callbacks?.enqueue(deliveries);
    } finally {
      await Promise.all(called.map((stop) => this.deps.store.release(stop.record.pipeline_run_id)));
    }
  }

  /**
   * Keep the stopped records in storage (write-behind) and their payloads for their retries
   * (docs/checkpoints.md#retrying-a-run; their step checkpoints stay until they expire).
   */
  private async keep(stops: readonly Stop[]): Promise<void> {
    const { objects } = this.deps;
    for (const stop of stops) await objects.saveFinished(stop.record, new Set());
    await Promise.all(stops.map((stop) => (stop.job ? keepPayloadForRetry(objects.store, stop.job) : undefined)));
  }
}
