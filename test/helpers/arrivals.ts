/**
 * Arrival counting for rate-limit tests and the rate-limit bench: how many calls a fake provider saw within a span, and
 * how many it was answering at once.
 */

/**
 * The largest number of arrivals within any span of `spanMs` starting at an arrival (a sliding window's worst case).
 * @param times - arrival times, in ms, in any order
 * @param spanMs - the span, in ms
 * @returns the most arrivals in one span; 0 for none
 */
export function mostWithin(times: readonly number[], spanMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < sorted.length; last++) {
    while (sorted[last]! - sorted[first]! >= spanMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** A call as a fake provider saw it: when it arrived and when it was answered (ms; absent while unanswered). */
interface AnsweredCall {
  receivedAt: number;
  answeredAt?: number | undefined;
}

/**
 * The largest number of calls a fake provider was answering at once (one answered as another came: apart).
 * @param calls - the calls, in any order
 * @returns the most in flight at once; 0 for none
 */
export function mostInFlight(calls: readonly AnsweredCall[]): number {
  const edges = calls.flatMap((call) => [
    { at: call.receivedAt, step: 1 },
    { at: call.answeredAt ?? Number.POSITIVE_INFINITY, step: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let current = 0;
  let most = 0;
  for (const edge of edges) {
    current += edge.step;
    most = Math.max(most, current);
  }
  return most;
}
