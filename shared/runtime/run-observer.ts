/**
 * The run observer port (CONTRIBUTING.md#3-the-runtime-reaches-out-through-ports): how a host follows a run pipe by
 * pipe, for live progress
 * (docs/run-events.md). The runtime reports each pipe run — operator or controller, nested or not — as it starts and
 * as it ends; the host turns the reports into events and progress however it publishes them. Reports are plain data
 * (they cross processes as JSON).
 *
 * Glossary: a *step* is one pipe run within one run attempt, numbered from 1 in start order; a controller's steps are
 * the *parent step* of the pipes it runs.
 */
import type { PipeType } from '../mthds/index.js';
import type { UsageSummary } from './usage-report.js';

/** Tokens spent by the inference calls of one pipe run, its nested pipes included. */
export interface PipeTokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Which pipe run a report is about. */
export interface PipeStep {
  /** 1-based ordinal of the pipe run within the run attempt, in start order. */
  step: number;
  /** The step of the controller running it; null for the run's entry pipe. */
  parentStep: number | null;
  pipeCode: string;
  pipeType: PipeType;
  /** The declared output concept (`domain.Concept`, or `native.X`). */
  outputConcept: string;
}

/** A report on one pipe run. Times are epoch milliseconds, durations milliseconds. */
export type PipeProgress =
  | { kind: 'started'; step: PipeStep; at: number }
  | {
      kind: 'finished';
      step: PipeStep;
      at: number;
      durationMs: number;
      usage: PipeTokenUsage;
      /** The run's usage and cost so far, every call of the run up to now counted (usage-report.ts). */
      runUsage: UsageSummary;
      /**
       * Present (true) when the pipe was not run but restored from the step checkpoint an earlier attempt of the run
       * left (docs/checkpoints.md): it made no inference call, so its `usage` is zero.
       */
      replayed?: true;
    }
  | {
      kind: 'failed';
      step: PipeStep;
      at: number;
      durationMs: number;
      usage: PipeTokenUsage;
      /** The run's usage and cost so far, likewise. */
      runUsage: UsageSummary;
      /**
       * What the pipe threw: its `error_type` and message; a foreign error (not raised on purpose) is the catch-all
       * `InternalServerError` with its fixed message, as on the HTTP path (docs/errors.md#disclosure).
       */
      error: { error_type: string; message: string };
    };

/**
 * Receives a run's pipe reports, synchronously and in order (a pipe's `started` precedes its children's reports and
 * its own `finished` or `failed`). It must not throw and must not block: a host doing I/O queues the work.
 */
export interface RunObserver {
  /**
   * One report.
   * @param progress - the pipe run and what happened to it
   */
  pipeProgress(progress: PipeProgress): void;
  /**
   * Optional: run a pipe's work in the host's scope of its step, right after its `started` report (a host tracing the
   * run makes the step's span the active one, so the calls the pipe makes and the pipes it runs become its children;
   * docs/tracing.md). Must call `work` once and settle as it settles.
   * @param step - the step number of the `started` report
   * @param work - the pipe's run
   */
  within?<T>(step: number, work: () => Promise<T>): Promise<T>;
}
