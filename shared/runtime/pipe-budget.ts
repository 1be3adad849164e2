/**
 * The bound on the pipes one run starts (docs/limits.md#pipes-per-run), and the dry run's own ("Dry runs"). Batches
 * over lists multiply the pipes a run starts (a batch over 1,000 items whose branch batches over 1,000 more starts a
 * million), and with them its time, its cost and all it keeps (working memories, events, graph nodes, usage records).
 * The router counts every pipe as it starts (pipe-router.ts), in-process children included. A fanned-out child
 * carries the run's count to the process that runs it and hands back the pipes it started, which the run adds to its
 * own (child-jobs.ts, docs/fan-out.md): wherever its pipes run, a run has one count.
 */
import { ComputeBudgetExceededError, RunPipeBudgetExceededError } from '../errors/index.js';

/** Most pipes a live run starts when its host sets no bound (`RUN_MAX_PIPES`). */
export const DEFAULT_RUN_MAX_PIPES = 10_000;

/**
 * Most pipes the dry run of one pipe runs. A dry run batches over mock lists of up to MAX_MULTIPLICITY items, so it
 * meets the same products; its bound is the same on every deployment, as a verdict is.
 */
const MAX_DRY_RUN_PIPES = 10_000;

/** A run's pipe count as a fanned-out child carries it: the most pipes the run may start, and how many it has. */
export interface PipeCount {
  max: number;
  started: number;
}

/** Counts the pipes a run, or one fanned-out child of it, starts, against the run's bound. */
export class PipeBudget {
  private started: number;
  private readonly startedBefore: number;

  /**
   * @param max - the bound
   * @param started - the pipes the run had started before this count began
   * @param exceeded - the error thrown past the bound
   */
  private constructor(
    private readonly max: number,
    started: number,
    private readonly exceeded: (max: number) => Error,
  ) {
    this.started = started;
    this.startedBefore = started;
  }

  /**
   * The budget of a live run, or of a fanned-out child of one.
   * @param count - the run's bound and the pipes it had started (0 for the run itself; the run's count when the child
   *   was handed out)
   */
  static live(count: PipeCount): PipeBudget {
    return new PipeBudget(
      count.max,
      count.started,
      (max) =>
        new RunPipeBudgetExceededError(
          `The run would start more than ${max.toLocaleString('en-US')} pipes, the most one run may start (RUN_MAX_PIPES): batches over lists multiply the pipes a run starts. Nest fewer batches or batch over shorter lists (docs/limits.md#pipes-per-run).`,
          { retryable: false },
        ),
    );
  }

  /** The budget of a dry run, {@link MAX_DRY_RUN_PIPES} pipes. */
  static dryRun(): PipeBudget {
    return new PipeBudget(
      MAX_DRY_RUN_PIPES,
      0,
      (max) =>
        new ComputeBudgetExceededError(
          `the dry run ran more than ${max.toLocaleString('en-US')} pipes (batches over lists multiply the pipes it runs); nest fewer batches or batch over shorter lists.`,
        ),
    );
  }

  /**
   * Count a pipe about to start.
   * @throws RunPipeBudgetExceededError (422, not retryable; ComputeBudgetExceededError in a dry run) past the bound
   */
  start(): void {
    this.add(1);
  }

  /**
   * Count the pipes a fanned-out child started in another process (its report's `pipes`).
   * @throws as {@link PipeBudget.start} when they take the run past the bound
   */
  absorb(pipes: number): void {
    this.add(pipes);
  }

  /** The count a child handed out now carries. */
  share(): PipeCount {
    return { max: this.max, started: this.started };
  }

  /** Pipes counted since this budget began: what a fanned-out child hands back. */
  get counted(): number {
    return this.started - this.startedBefore;
  }

  private add(pipes: number): void {
    this.started += pipes;
    if (this.started > this.max) throw this.exceeded(this.max);
  }
}
