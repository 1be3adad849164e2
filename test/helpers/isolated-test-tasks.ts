/**
 * Worker module for the isolated-pool tests: operations that answer (their input, or the thread's id), fail with a
 * typed error, sleep, hold until the test releases them, spin, eat memory, or reserve heap for an allocation.
 *
 * A gate is a `SharedArrayBuffer` of two `Int32` cells: the task sets cell 0 to 1 once it runs, and `hold` returns
 * once the test sets cell 1 to 1 (see `TaskGate` in the isolated-pool tests).
 */
import { threadId } from 'node:worker_threads';
import { isolatedTaskHandler, reserveHeap } from '../../shared/compute/index.js';
import { Jinja2TemplateSyntaxError } from '../../shared/errors/index.js';

/** Tell the test the task runs: cell 0 of its gate. */
function markStarted(gate: SharedArrayBuffer): void {
  const cells = new Int32Array(gate);
  Atomics.store(cells, 0, 1);
  Atomics.notify(cells, 0);
}

export default isolatedTaskHandler({
  echo: (input: unknown) => input,
  thread: () => threadId,
  typed: (message: string) => {
    throw new Jinja2TemplateSyntaxError(message);
  },
  spin: (gate: SharedArrayBuffer | null) => {
    if (gate) markStarted(gate);
    for (;;) {
      // a render that never yields
    }
  },
  hold: (gate: SharedArrayBuffer) => {
    markStarted(gate);
    Atomics.wait(new Int32Array(gate), 1, 0);
    return 'released';
  },
  sleep: (ms: number) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)),
  reserve: (mib: number) => {
    reserveHeap(mib * 1024 * 1024);
    return threadId;
  },
  grow: () => {
    const hoard: string[] = [];
    for (let index = 0; ; index += 1) hoard.push(`${index}`.repeat(1024));
  },
});
