/**
 * Arrival counting for rate-limit tests and the rate-limit bench: how many calls a fake provider saw within a span.
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
