/**
 * The message format between an {@link IsolatedPool} and its worker threads: a task names an operation and carries
 * its input plus a small shared buffer in which the thread stamps when it began (so the pool tells time spent waiting
 * for a thread from time spent running); the answer is a value or an error report (errors cross the thread boundary
 * as data and are rebuilt on the other side, CONTRIBUTING.md#11-errors-cross-boundaries-as-data).
 */
import type { ErrorReport } from '../errors/index.js';

/** What the pool posts to a thread. */
export interface TaskMessage {
  /** Name of the operation in the thread's table. */
  op: string;
  /** Its input: structured-clonable data. */
  input: unknown;
  /** 16 bytes: Int32 at 0 set to 1 once the thread began; Float64 at byte 8, the start time (epoch ms). */
  started: SharedArrayBuffer;
}

/**
 * What a thread answers: a value, an error report, or `limit: 'memory'` when the task stopped before an allocation its
 * heap could not hold (heap-headroom.ts), which the pool reports as its memory limit.
 */
export type TaskAnswer =
  | { ok: true; value: unknown }
  | { ok: false; report: ErrorReport }
  | { ok: false; limit: 'memory' };

/** Bytes of {@link TaskMessage.started}. */
export const STARTED_BYTES = 16;

/**
 * Views over a task's start stamp.
 * @param buffer - the task's {@link TaskMessage.started}
 */
export function startStamp(buffer: SharedArrayBuffer): { flag: Int32Array; time: Float64Array } {
  return { flag: new Int32Array(buffer, 0, 1), time: new Float64Array(buffer, 8, 1) };
}

/**
 * The operation every thread answers with `null`: the pool sends it to make piscina start a thread in place of one it
 * stopped, since piscina replaces a stopped thread only up to `minThreads` and would leave the tasks queued behind it
 * waiting for the next submission.
 */
export const READY_OP = '__ready';
