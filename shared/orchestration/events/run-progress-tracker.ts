/**
 * The observer of one run attempt (the runtime's `RunObserver`): turns its pipe reports into run events and progress
 * and appends them to the run event log in order, one append after the other (the events published while an append
 * is in flight go together in the next one; with a linger, an event waits that long for the next ones to go with it),
 * without ever holding the run up — a failed append is reported to `onError`
 * and the run goes on (events are best effort; the run record is what counts).
 * It knows the failing pipe of the attempt: the first pipe that failed, else — when the run died without a pipe
 * failing (its quarantine process was killed) — the pipe that was running: the `pipe_code` of the run's error report.
 */
import { activeTraceId } from '../../observability/index.js';
import type { PipeProgress, RunObserver } from '../../runtime/index.js';
import { type RunUsageReport, runUsageReport } from '../../wire/index.js';
import {
  type CurrentPipe,
  pipeEvent,
  type RunError,
  type RunEvent,
  type RunProgress,
  runFinishedEvent,
} from './run-event.js';
import type { RunEventBatch, RunEventLog } from './run-event-log.js';

/**
 * How long a run's event waits for the ones that follow it quickly to be appended with it, in ms: `run:started` goes
 * with the first pipe's start, a run's last `pipe:finished` with its end (the finished record and `run:finished`,
 * written together) — one round trip to Redis instead of two (docs/run-events.md#where-events-are-kept).
 */
export const RUN_EVENT_LINGER_MS = 10;

/** What a tracker needs. */
export interface RunProgressTrackerDeps {
  events: RunEventLog;
  /** The run's `pipeline_run_id`. */
  runId: string;
  /** Clock, epoch ms. */
  now(): number;
  /** Told of an append that failed (to log it). */
  onError(error: unknown): void;
  /**
   * How long an event may wait for later ones to be appended with it, in ms (0, the default: appended at once). The
   * run's end ({@link RunProgressTracker.finishing}) takes what waits, and {@link RunProgressTracker.flush} appends
   * it at once.
   */
  lingerMs?: number;
}

/** Follows one attempt of a run and publishes its events. */
export class RunProgressTracker implements RunObserver {
  /** Events published while an append is in flight, appended together by the next one. */
  private queued: RunEvent[] = [];
  /** The progress after the last queued event that carried one. */
  private queuedProgress: RunProgress | undefined;
  /** The appends in flight, until the queue is empty. */
  private draining: Promise<void> | undefined;
  /** The timer of the events waiting out their linger before an append starts. */
  private lingering: NodeJS.Timeout | undefined;
  /** Set by {@link holdForEnd}: what is published waits for the run's end (or a flush), with no linger. */
  private held = false;
  private readonly running = new Map<number, CurrentPipe>();
  private finishedPipes = 0;
  private failedPipe: string | null = null;
  private usage: RunUsageReport | undefined;

  /** @param deps - event log, run id, clock and error sink */
  constructor(private readonly deps: RunProgressTrackerDeps) {}

  /**
   * The failing pipe of this attempt: the first pipe that failed (the innermost failing pipe), else the pipe running
   * now (the run died while it ran), else null.
   */
  get failingPipeCode(): string | null {
    return this.failedPipe ?? this.snapshot().current_pipe?.pipe_code ?? null;
  }

  /** The attempt's usage and cost report as of the last pipe that ended; undefined before one has. */
  get runUsage(): RunUsageReport | undefined {
    return this.usage;
  }

  /**
   * Publish `run:started`.
   * @param pipeCode - the requested `pipe_code`, null for the bundle's `main_pipe`
   * @param attempt - 1-based attempt number
   */
  runStarted(pipeCode: string | null, attempt: number): void {
    const traceId = activeTraceId();
    this.publish({
      type: 'run:started',
      pipeline_run_id: this.deps.runId,
      at: new Date(this.deps.now()).toISOString(),
      pipe_code: pipeCode,
      attempt,
      ...(traceId ? { trace_id: traceId } : {}),
    });
  }

  /**
   * Publish a pipe report as its event, with the progress after it.
   * @param progress - the runtime's report
   */
  pipeProgress(progress: PipeProgress): void {
    const step = progress.step;
    if (progress.kind === 'started') {
      this.running.set(step.step, {
        step: step.step,
        pipe_code: step.pipeCode,
        pipe_type: step.pipeType,
        started_at: new Date(progress.at).toISOString(),
      });
    } else {
      this.running.delete(step.step);
      this.usage = runUsageReport(progress.runUsage);
      if (progress.kind === 'finished') this.finishedPipes += 1;
      else this.failedPipe ??= step.pipeCode;
    }
    this.publish(pipeEvent(this.deps.runId, progress), this.snapshot());
  }

  /**
   * The attempt's result is in hand: what waits, and whatever is published from now on, goes with the run's end
   * ({@link finishing}) instead of an append of its own, however long the attempt takes to keep its objects before it
   * records that end (a completed run's last `pipe:finished` no longer costs a round trip). An append in flight ends
   * with the events it carries; {@link flush} appends what is held at once and ends the hold.
   */
  holdForEnd(): void {
    this.held = true;
    this.stopLingering();
  }

  /**
   * Hand over the run's end instead of appending it: once the appends in flight are done, the events not yet appended
   * and the terminal `run:finished`, for the store to write with the finished record in one step
   * (`RunStore.finishOnce`). The tracker appends nothing more after it.
   * @param error - why the run failed, or null when it completed
   * @returns the events, oldest first, and the progress after them
   */
  async finishing(error: RunError | null): Promise<RunEventBatch> {
    this.stopLingering();
    const events = [...this.queued, this.finishedEvent(error)];
    this.queued = [];
    this.queuedProgress = undefined;
    await this.draining;
    return { events, progress: this.snapshot() };
  }

  private finishedEvent(error: RunError | null): RunEvent {
    this.running.clear();
    return runFinishedEvent(
      this.deps.runId,
      this.deps.now(),
      this.finishedPipes,
      error,
      error ? 'FAILED' : 'COMPLETED',
      this.usage ?? null,
    );
  }

  /**
   * Append what waits at once (held ones too: {@link holdForEnd} ends), and wait until every event published so far is
   * appended (or has failed).
   */
  flush(): Promise<void> {
    this.held = false;
    this.stopLingering();
    if (this.queued.length > 0) this.draining ??= this.drain();
    return this.draining ?? Promise.resolve();
  }

  private stopLingering(): void {
    clearTimeout(this.lingering);
    this.lingering = undefined;
  }

  private snapshot(): RunProgress {
    let current: CurrentPipe | null = null;
    for (const pipe of this.running.values()) if (!current || pipe.step > current.step) current = pipe;
    return { current_pipe: current, finished_pipes: this.finishedPipes, ...(this.usage ? { usage: this.usage } : {}) };
  }

  private publish(event: RunEvent, progress?: RunProgress): void {
    this.queued.push(event);
    if (progress) this.queuedProgress = progress;
    if (this.draining || this.lingering || this.held) return;
    const lingerMs = this.deps.lingerMs ?? 0;
    if (lingerMs <= 0) {
      this.draining = this.drain();
      return;
    }
    this.lingering = setTimeout(() => {
      this.lingering = undefined;
      this.draining ??= this.drain();
    }, lingerMs);
  }

  /**
   * Append the queued events, all at once, until none is left or they are held for the run's end (an append failure is
   * reported, the rest goes on).
   */
  private async drain(): Promise<void> {
    while (this.queued.length > 0 && !this.held) {
      const events = this.queued;
      const progress = this.queuedProgress;
      this.queued = [];
      this.queuedProgress = undefined;
      await this.deps.events.append(this.deps.runId, events, progress).catch(this.deps.onError);
    }
    this.draining = undefined;
  }
}
