/**
 * Polling for a condition in integration tests (for state that has no event to wait on, such as a run's status read
 * over HTTP). Bounded in time; fails with the last value seen.
 */
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Call `read` until `done` accepts its value.
 * @param read - reads the current value
 * @param done - the condition
 * @param timeoutMs - give up after this long
 * @param intervalMs - pause between reads
 * @throws Error naming the last value when the time runs out
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!done(last)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
    await delay(intervalMs);
    last = await read();
  }
  return last;
}
