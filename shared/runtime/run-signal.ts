/**
 * The abort signal a run's steps share (a run stopped stops every call it has in flight). Each call in flight
 * listens to it — an SDK adds an `abort` listener per request — and a run has as many calls in flight as its
 * controllers run at once (`BATCH_MAX_PARALLEL` per level of nesting), so Node's default cap of 10 listeners would
 * print a `MaxListenersExceededWarning` for any batch wider than 10, though every listener is removed when its call
 * ends.
 */
import { setMaxListeners } from 'node:events';

/**
 * The signal of one run: aborts with the host's signal, without a listener cap. The host's own signal is left as it
 * is.
 * @param signal - the host's signal (a request's, a job's)
 * @returns a signal following it
 */
export function runSignal(signal: AbortSignal): AbortSignal {
  const shared = AbortSignal.any([signal]);
  setMaxListeners(0, shared);
  return shared;
}
