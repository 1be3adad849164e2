/**
 * The fan-out port (CONTRIBUTING.md#3-the-runtime-reaches-out-through-ports; docs/fan-out.md): how a host runs the
 * children of a PipeBatch or a PipeParallel
 * somewhere else than in the run's own process — as child jobs any worker can take. The runtime hands it the children
 * as plain JSON (the branch pipe's ref, a snapshot of the branch's working memory, its output name and run
 * parameters) and gets back each child's main outcome; without the port, children run in-process.
 */
import type { Absence } from './absence.js';
import type { GraphFragment } from './graph-recorder.js';
import type { PipeCount } from './pipe-budget.js';
import type { PipeProgress } from './run-observer.js';
import type { InferenceCall } from './usage-report.js';
import type { MemorySnapshot, StuffSnapshot } from './working-memory.js';

/** The run parameters a child carries (pipe-job.ts `RunParams` without the host-local graph node and progress step). */
export interface FanOutChildParams {
  outputMultiplicity: boolean | number | null;
  dynamicOutputConceptRef: string | null;
  /** Codes of the pipes running around it, outermost first (its controller's included). */
  stack: string[];
  /** Its deterministic position in the run's execution (step-path.ts), e.g. `main/s2/b11`. */
  stepPath: string;
}

/** One child to run: a pipe of the run's library on its own copy of the working memory. */
export interface FanOutChild {
  /** The branch pipe's `domain.pipe_code`. */
  pipeRef: string;
  memory: MemorySnapshot;
  /** Where the branch stores its output; null for `main_stuff`. */
  outputName: string | null;
  params: FanOutChildParams;
  /** The run's pipe bound and the pipes it had started when the child was handed out (pipe-budget.ts). */
  pipes: PipeCount;
}

/**
 * What a child's run left as its latest output: a stuff (with the name it is stored under, null for `main_stuff`),
 * an absence, or nothing.
 */
export type FanOutOutcome =
  | { kind: 'stuff'; name: string | null; stuff: StuffSnapshot }
  | { kind: 'absent'; absence: Absence }
  | { kind: 'none' };

/** What a child's run spent and reported, success or failure: merged into the parent run's usage and events. */
export interface FanOutReport {
  /** The inference calls of the child, in call order. */
  usage: InferenceCall[];
  /** The child's pipe reports, its own pipe's steps numbered from 1 with no parent step. */
  progress: PipeProgress[];
  /** The child's graph nodes, its own pipe's node at the top (graph-recorder.ts). */
  graph: GraphFragment;
  /** Pipes the child started, its own included: they join the run's count (pipe-budget.ts). */
  pipes: number;
}

/** How to run one set of children. */
export interface FanOutOptions {
  /** Most children in flight at once (the run's `BATCH_MAX_PARALLEL`, ≥ 1). */
  cap: number;
  /** Aborts the wait (the children already started keep running). */
  signal?: AbortSignal;
  /**
   * Told of each child as it ends, success or failure, in the order they end and before {@link FanOutPort.run}
   * settles; never after it settled.
   * @param index - the child's index in the list given to `run`
   * @param report - its usage and pipe reports
   * @throws RunPipeBudgetExceededError when the child's pipes take the run past its bound: the fan-out then stops and
   *   rejects with it, as with the error of a failing child
   */
  onEnded(index: number, report: FanOutReport): void;
}

/** Runs children elsewhere. */
export interface FanOutPort {
  /**
   * Run children, at most `options.cap` at once.
   * @param count - how many children
   * @param childAt - the child at an index (from 0, input order); called once, when its turn comes, so that only the
   *   children in flight hold a copy of the memory
   * @param options - the cap, abort signal and end-of-child listener
   * @returns each child's outcome, in input order
   * @throws the error of the first child that fails (rebuilt from its report; later children are not started and
   *   results of children still in flight are ignored), or that `options.onEnded` throws, likewise; the signal's
   *   reason when it aborts
   */
  run(count: number, childAt: (index: number) => FanOutChild, options: FanOutOptions): Promise<FanOutOutcome[]>;
}
