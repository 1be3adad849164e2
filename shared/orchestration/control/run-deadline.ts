/**
 * The deadline of a run with `timeout_seconds` (docs/cancellation.md#deadlines): its acceptance time plus the timeout.
 * Whoever runs it arms a timer on it, which stops the run (`TIMED_OUT`) when it passes.
 */

/** Longest wait one timer takes, in ms (Node holds a timer's delay in 31 bits); a longer wait is re-armed. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The deadline of a run.
 * @param createdAt - when the run was accepted, epoch ms
 * @param timeoutSeconds - the request's `timeout_seconds`; none when absent or null
 * @returns the deadline, epoch ms; undefined without a timeout
 */
export function runDeadline(createdAt: number, timeoutSeconds: number | null | undefined): number | undefined {
  return timeoutSeconds ? createdAt + timeoutSeconds * 1000 : undefined;
}

/**
 * Call `expired` once, when the deadline passes (on the next turn when it has already passed).
 * @param deadline - epoch ms
 * @param now - clock, epoch ms
 * @param expired - what the deadline does (it must not throw)
 * @returns disarms the timer (the run ended first); calling it after the deadline does nothing
 */
export function armDeadline(deadline: number, now: () => number, expired: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = deadline - now();
    timer = setTimeout(left > LONGEST_TIMER_MS ? arm : expired, Math.max(0, Math.min(left, LONGEST_TIMER_MS)));
  };
  arm();
  return () => clearTimeout(timer);
}
