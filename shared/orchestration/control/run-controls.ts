/**
 * The runs in flight in one process, each with what stops it (docs/cancellation.md#how-a-run-stops): a queued run's
 * attempt and each of its fanned-out children a worker runs, a direct run in the API process. Whoever runs one holds it
 * for as long as it runs; a stop aborts every hold of the run in this process with the stop's error. A stop is also
 * remembered for a while, so a piece of the run taken after it (a child job still waiting when its run stopped) is
 * held already aborted and never starts.
 */
import { LRUCache } from 'lru-cache';
import { uncappedRunSignal } from '../../runtime/index.js';
import { type RunRef, type RunStopState, runStopError } from './run-stop.js';

/** How long a stop is remembered, in ms: longer than a child job waits in a busy queue. */
const STOPS_REMEMBERED_MS = 15 * 60_000;
/** Most stops remembered at once (the oldest go first). */
const MOST_STOPS_REMEMBERED = 100_000;

/** A run held in this process. */
export interface RunHold {
  /** Aborts, with the stop's error as its reason, once the run is stopped. */
  readonly signal: AbortSignal;
  /** The run no longer runs here (its attempt or child ended): drop the hold. */
  release(): void;
}

function keyOf(run: RunRef): string {
  return `${run.pipelineRunId}\n${run.requestId}\n${run.createdAt}`;
}

/** The runs held in one process. */
export class RunControls {
  private readonly holds = new Map<string, { run: RunRef; controllers: Set<AbortController> }>();
  private readonly stops = new LRUCache<string, RunStopState>({
    max: MOST_STOPS_REMEMBERED,
    ttl: STOPS_REMEMBERED_MS,
  });

  /**
   * Hold a run while a piece of it runs here.
   * @param run - the run's submission
   * @param host - the signal of whatever runs the piece (the worker's job, the request): the hold aborts with it, with
   *   its reason, so the piece listens to one signal instead of a combination made for it
   * @returns its hold, already aborted when the run was stopped (as this process heard) before, or when `host` was
   */
  hold(run: RunRef, host?: AbortSignal): RunHold {
    const key = keyOf(run);
    const controller = new AbortController();
    // every call of the run in flight listens to it, and the runtime shares it as it is
    uncappedRunSignal(controller.signal);
    const followHost = () => controller.abort(host?.reason);
    if (host?.aborted) followHost();
    else host?.addEventListener('abort', followHost, { once: true });
    const stopped = this.stops.get(key);
    if (stopped && !controller.signal.aborted) controller.abort(runStopError(stopped, run.pipelineRunId));
    let entry = this.holds.get(key);
    if (!entry) {
      entry = { run, controllers: new Set() };
      this.holds.set(key, entry);
    }
    entry.controllers.add(controller);
    const held = entry;
    return {
      signal: controller.signal,
      release: () => {
        host?.removeEventListener('abort', followHost);
        held.controllers.delete(controller);
        if (held.controllers.size === 0 && this.holds.get(key) === held) this.holds.delete(key);
      },
    };
  }

  /**
   * Stop runs in this process: abort every hold of each with the stop's error, and remember the stop.
   * @param runs - the runs' submissions
   * @param state - how they ended
   */
  abort(runs: readonly RunRef[], state: RunStopState): void {
    for (const run of runs) {
      const key = keyOf(run);
      this.stops.set(key, state);
      for (const controller of this.holds.get(key)?.controllers ?? []) {
        if (!controller.signal.aborted) controller.abort(runStopError(state, run.pipelineRunId));
      }
    }
  }

  /** The runs held now (each once, however many pieces of it run here). */
  held(): RunRef[] {
    return [...this.holds.values()].map((entry) => entry.run);
  }
}
