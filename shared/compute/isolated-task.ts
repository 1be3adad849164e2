/**
 * The thread side of an {@link IsolatedPool}: turns a table of operations into the default export piscina calls.
 * Each operation gets its input and returns a value (or a promise of one); what it throws is answered as an error
 * report, so typed errors (422 template budget, validation errors, …) keep their wire shape across the boundary; a
 * refused heap reservation (heap-headroom.ts) is answered as the thread's memory limit.
 */
import { toErrorReport } from '../errors/index.js';
import { HeapReservationRefused } from './heap-headroom.js';
import { READY_OP, startStamp, type TaskAnswer, type TaskMessage } from './task-protocol.js';

/** An operation a thread can run. */
export type IsolatedOperation = (input: never) => unknown;

/**
 * Build a worker module's default export.
 * @param operations - the operations by name
 * @returns the task handler: stamps the start, runs the operation, answers a {@link TaskAnswer}
 */
export function isolatedTaskHandler(
  operations: Record<string, IsolatedOperation>,
): (message: TaskMessage) => Promise<TaskAnswer> {
  return async (message) => {
    const stamp = startStamp(message.started);
    stamp.time[0] = Date.now();
    Atomics.store(stamp.flag, 0, 1);
    if (message.op === READY_OP) return { ok: true, value: null };
    const operation = Object.hasOwn(operations, message.op) ? operations[message.op] : undefined;
    try {
      if (!operation) throw new Error(`unknown isolated operation '${message.op}'`);
      return { ok: true, value: await (operation as (input: unknown) => unknown)(message.input) };
    } catch (error) {
      if (error instanceof HeapReservationRefused) return { ok: false, limit: 'memory' };
      return { ok: false, report: toErrorReport(error, '') };
    }
  };
}
