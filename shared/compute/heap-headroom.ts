/**
 * Heap headroom of an isolated thread (docs/isolation.md#why-a-threads-heap-limit-can-stop-the-process): V8 stops
 * a thread that outgrows its `resourceLimits` only while the heap grows by allocations smaller than the 16 MiB Node
 * adds past the limit to let the thread stop; a single allocation that takes the heap further aborts the whole
 * process. A task about to make one large allocation it can size beforehand (flattening a serialised answer into
 * bytes) reserves it here first: when the heap cannot hold it, the task stops with the pool's memory error instead.
 */
import { getHeapStatistics } from 'node:v8';

/** Heap kept free beyond a reservation, in bytes: room for what the task allocates around it. */
const SLACK_BYTES = 32 * 1024 * 1024;

/**
 * A reservation the thread's heap cannot hold. Never reaches a caller as such: the task handler answers the pool's
 * memory limit with it (`isolated-task.ts`), which the pool reports as its own memory budget error (422).
 */
export class HeapReservationRefused extends Error {
  constructor(readonly bytes: number) {
    super(`not enough heap left for an allocation of ${bytes} bytes`);
  }
}

/**
 * Check that the thread's heap can still hold an allocation, before making it.
 * @param bytes - the size of the allocation about to be made
 * @throws HeapReservationRefused when the heap limit, less what is in use and a slack, is smaller
 */
export function reserveHeap(bytes: number): void {
  const { heap_size_limit: limit, used_heap_size: used } = getHeapStatistics();
  if (used + bytes + SLACK_BYTES > limit) throw new HeapReservationRefused(bytes);
}
