/**
 * The events of one run (docs/run-events.md), as `GET /v1/runs/{id}/events` streams them and the run event log keeps
 * them, and the progress the status route reports. Event names are `noun:verb` (CONTRIBUTING.md#17-typed-events); every
 * event is
 * plain JSON with its `type`, the `pipeline_run_id` and the time `at` (ISO-8601 UTC).
 *
 * Order within one attempt: `run:started`, then each pipe's `pipe:started` before its nested pipes' events and its own
 * `pipe:finished` or `pipe:failed`; the run's last event is `run:finished` (the terminal event). A retried run
 * (a transient provider error) has a `run:started` per attempt, and its step numbers restart at 1.
 */
import type { ErrorReport } from '../../errors/index.js';
import type { PipeProgress } from '../../runtime/index.js';
import {
  type RunUsageReport,
  type TokenCounts,
  tokenCounts,
  type UsageFigures,
  usageFigures,
} from '../../wire/index.js';

/**
 * A failed run's error report as the lifecycle routes and events carry it: the report of the error that ended the run
 * (`error_type`, `error_domain`, `message`, `title`, `type_uri`, …) with `retryable` always present and the failing
 * `pipe_code` (null when the run failed before any pipe ran).
 */
export interface RunError extends ErrorReport {
  retryable: boolean;
  pipe_code: string | null;
}

/**
 * The run error of a stored report (a report without a `retryable` says the run cannot succeed as it is).
 * @param report - the report kept on the run record
 */
export function runError(report: ErrorReport): RunError {
  return { ...report, retryable: report.retryable ?? false, pipe_code: report.pipe_code ?? null };
}

/** An attempt of the run began on a worker (queue mode) or in the API process (direct mode). */
export interface RunStartedEvent {
  type: 'run:started';
  pipeline_run_id: string;
  at: string;
  /** The requested `pipe_code`, null when the bundle's `main_pipe` runs. */
  pipe_code: string | null;
  /** 1-based attempt number (a retryable failure is retried, `RUN_MAX_ATTEMPTS`). */
  attempt: number;
  /** The id of the run's trace, while tracing is on (docs/tracing.md#run-documents). */
  trace_id?: string;
}

/** What every pipe event says about its pipe run. */
interface PipeEventFields {
  pipeline_run_id: string;
  at: string;
  /** 1-based ordinal of the pipe run within the attempt, in start order. */
  step: number;
  /** The step of the controller running it; null for the entry pipe. */
  parent_step: number | null;
  pipe_code: string;
  pipe_type: string;
  /** The declared output concept (`domain.Concept` or `native.X`). */
  output_concept: string;
}

/** A pipe (operator or controller) started. */
export interface PipeStartedEvent extends PipeEventFields {
  type: 'pipe:started';
}

/** A pipe finished. */
export interface PipeFinishedEvent extends PipeEventFields {
  type: 'pipe:finished';
  /** Wall-clock duration in ms. */
  duration_ms: number;
  /** Tokens of the inference calls made while it ran, nested pipes included. */
  token_usage: TokenCounts;
  /** The run's usage and cost so far (its totals: every call of the attempt up to now; docs/run-events.md). */
  run_usage: UsageFigures;
}

/** A pipe failed; its controllers fail after it, unless one recovers. */
export interface PipeFailedEvent extends PipeEventFields {
  type: 'pipe:failed';
  duration_ms: number;
  token_usage: TokenCounts;
  /** The run's usage and cost so far, likewise. */
  run_usage: UsageFigures;
  /** What it threw. */
  error: { error_type: string; message: string };
}

/** The run ended: the terminal event, after which a stream ends. */
export interface RunFinishedEvent {
  type: 'run:finished';
  pipeline_run_id: string;
  at: string;
  /** How the run ended: `CANCELLED` and `TIMED_OUT` are stops (docs/cancellation.md). */
  status: 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TIMED_OUT';
  /** Pipes of the last attempt that finished. */
  finished_pipes: number;
  /** Why a FAILED run failed, or the stop of a stopped one; null on COMPLETED. */
  error: RunError | null;
  /**
   * The usage and cost of the run's last attempt: totals, by model and by pipe (docs/run-events.md#usage-and-cost);
   * null when no pipe of it reported (the run failed before its first pipe ended).
   */
  usage: RunUsageReport | null;
}

/** Any event of a run. */
export type RunEvent = RunStartedEvent | PipeStartedEvent | PipeFinishedEvent | PipeFailedEvent | RunFinishedEvent;

/** The pipe that runs now, as the status route reports it. */
export interface CurrentPipe {
  step: number;
  pipe_code: string;
  pipe_type: string;
  /** ISO-8601 UTC. */
  started_at: string;
}

/**
 * A run's progress: the most recently started pipe still running (null before the first pipe and once the run has
 * ended), and how many pipe runs of the current attempt have finished (failed ones not counted).
 */
export interface RunProgress {
  current_pipe: CurrentPipe | null;
  finished_pipes: number;
  /** The run's usage and cost so far, as of the last pipe that ended (absent before one has). */
  usage?: RunUsageReport;
}

/**
 * The event of a runtime pipe report.
 * @param runId - the `pipeline_run_id`
 * @param progress - the runtime's report
 */
export function pipeEvent(
  runId: string,
  progress: PipeProgress,
): PipeStartedEvent | PipeFinishedEvent | PipeFailedEvent {
  const fields: PipeEventFields = {
    pipeline_run_id: runId,
    at: new Date(progress.at).toISOString(),
    step: progress.step.step,
    parent_step: progress.step.parentStep,
    pipe_code: progress.step.pipeCode,
    pipe_type: progress.step.pipeType,
    output_concept: progress.step.outputConcept,
  };
  switch (progress.kind) {
    case 'started':
      return { type: 'pipe:started', ...fields };
    case 'finished':
      return {
        type: 'pipe:finished',
        ...fields,
        duration_ms: progress.durationMs,
        token_usage: tokenCounts(progress.usage),
        run_usage: usageFigures(progress.runUsage.total),
      };
    case 'failed':
      return {
        type: 'pipe:failed',
        ...fields,
        duration_ms: progress.durationMs,
        token_usage: tokenCounts(progress.usage),
        run_usage: usageFigures(progress.runUsage.total),
        error: progress.error,
      };
  }
}

/**
 * The terminal event of a run.
 * @param runId - the `pipeline_run_id`
 * @param at - when it ended, epoch ms
 * @param finishedPipes - pipes of the last attempt that finished
 * @param error - why it failed; null when it completed (or when a failed run's record keeps no report)
 * @param status - how it ended; FAILED when `error` is given, COMPLETED otherwise, unless said
 * @param usage - the run's usage and cost report, null when unknown
 */
export function runFinishedEvent(
  runId: string,
  at: number,
  finishedPipes: number,
  error: RunError | null,
  status: RunFinishedEvent['status'] = error ? 'FAILED' : 'COMPLETED',
  usage: RunUsageReport | null = null,
): RunFinishedEvent {
  return {
    type: 'run:finished',
    pipeline_run_id: runId,
    at: new Date(at).toISOString(),
    status,
    finished_pipes: finishedPipes,
    error,
    usage,
  };
}
