/**
 * A clock for code that takes one (`now: () => number`, epoch ms): it runs with the real time, and a test moves it
 * ahead to let a TTL or an expiry pass without waiting for it.
 */
export class AdvancingClock {
  private aheadMs = 0;

  /** The time, epoch ms: the real time plus every {@link advance}. Bound, so it can be passed as it is. */
  readonly now = (): number => Date.now() + this.aheadMs;

  /**
   * Move the clock ahead.
   * @param ms - how far, in ms (not negative)
   */
  advance(ms: number): void {
    this.aheadMs += ms;
  }
}
