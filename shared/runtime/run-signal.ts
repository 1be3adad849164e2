/**
 * The abort signal a run's steps share (a run stopped stops every call it has in flight). Each call in flight
 * listens to it — an SDK adds an `abort` listener per request — and a run has as many calls in flight as its
 * controllers run at once (`BATCH_MAX_PARALLEL` per level of nesting), so Node's default cap of 10 listeners would
 * print a `MaxListenersExceededWarning` for any batch wider than 10, though every listener is removed when its call
 * ends.
 */
import { setMaxListeners } from 'node:events';

/** Signals made for one run, without a listener cap: the run shares them as they are. */
const runOwnSignals = new WeakSet<AbortSignal>();

/**
 * Lift the listener cap of a signal made for one run (a hold of the run, docs/cancellation.md), so that
 * {@link runSignal} shares it as it is instead of making a signal that follows it.
 * @param signal - a signal nothing but the run's calls listens to
 * @returns the same signal
 */
export function uncappedRunSignal(signal: AbortSignal): AbortSignal {
  setMaxListeners(0, signal);
  runOwnSignals.add(signal);
  return signal;
}

/**
 * The signal of one run: aborts with the host's signal, without a listener cap. The host's own signal is left as it
 * is (a signal following it is made), unless it was made for the run ({@link uncappedRunSignal}).
 * @param signal - the host's signal (a request's, a job's, a run's hold)
 * @returns a signal following it, or the signal itself
 */
export function runSignal(signal: AbortSignal): AbortSignal {
  if (runOwnSignals.has(signal)) return signal;
  const shared = AbortSignal.any([signal]);
  setMaxListeners(0, shared);
  return shared;
}
