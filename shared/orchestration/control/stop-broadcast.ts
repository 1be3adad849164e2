/**
 * Where a stop goes once it is recorded (docs/cancellation.md#how-a-run-stops): to every process that may hold a piece
 * of the run. Without Redis there is one process, so the stop aborts its own holds; with Redis it is published to
 * every API and worker process of the deployment (`redis-stop-channel.ts`).
 */
import type { RunControls } from './run-controls.js';
import type { RunRef, RunStopState } from './run-stop.js';

/** Tells the processes holding runs that they stopped. */
export interface StopBroadcast {
  /**
   * Stop runs wherever they run: this process's holds at once, every other process's as the stop reaches it.
   * @param runs - the stopped runs' submissions
   * @param state - how they ended
   * @throws QueueUnavailableError (503) when the stop cannot be published (Redis down)
   */
  announce(runs: readonly RunRef[], state: RunStopState): Promise<void>;
}

/**
 * The broadcast of a single process (direct mode without Redis): its own holds.
 * @param controls - the process's runs in flight
 */
export function localStopBroadcast(controls: RunControls): StopBroadcast {
  return {
    async announce(runs, state) {
      controls.abort(runs, state);
    },
  };
}
