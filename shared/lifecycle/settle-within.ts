/**
 * Waiting for something that may never happen (a Redis `QUIT` while Redis is down, a server with busy connections)
 * for a bounded time.
 */

/**
 * Wait for a promise, at most `ms`.
 * @param promise - what to wait for (a rejection counts as settled)
 * @param ms - the bound, in ms
 * @returns true when it settled in time, false when the time ran out
 */
export async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
