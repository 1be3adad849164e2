/**
 * Backend pauses: a provider that answered 429 with `Retry-After` is called by no process until then. A pause is a
 * blocked key of a rate-limiter-flexible counter (in Redis, so every worker sees it; in memory in direct mode).
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { type LimiterStore, windowCounter } from './limiter-store.js';

/** The pauses of every backend of a deployment. */
export class BackendPauses {
  private readonly blocks: RateLimiterAbstract;
  /** The lookup of each backend's pause under way: the calls that ask meanwhile share it. */
  private readonly lookups = new Map<string, Promise<number>>();

  /**
   * @param store - Redis (shared pauses) or memory
   * @param onPause - told of each pause set, with its length in seconds
   */
  constructor(
    store: LimiterStore,
    private readonly onPause: (backend: string, seconds: number) => void = () => undefined,
  ) {
    this.blocks = windowCounter(store, 'pause', 1, 1);
  }

  /**
   * Pause a backend for every process. A pause never shortens a longer one already set.
   * @param backend - the backend's name in `backends.toml`
   * @param seconds - the provider's `Retry-After`, rounded up to whole seconds (Redis expiries are whole seconds)
   */
  async pause(backend: string, seconds: number): Promise<void> {
    const whole = Math.ceil(seconds);
    if (whole <= 0 || (await this.remainingMs(backend)) >= whole * 1000) return;
    await this.blocks.block(backend, whole);
    this.onPause(backend, whole);
  }

  /**
   * How long a backend stays paused. Calls asking while a lookup of the same backend is under way share its answer
   * (one Redis round trip for a burst of calls, not one each).
   * @param backend - the backend's name
   * @returns milliseconds left, 0 when it is not paused
   */
  remainingMs(backend: string): Promise<number> {
    let lookup = this.lookups.get(backend);
    if (!lookup) {
      lookup = this.blocks
        .get(backend)
        .then((state) => (state && state.consumedPoints > this.blocks.points ? Math.max(0, state.msBeforeNext) : 0));
      this.lookups.set(backend, lookup);
      const forget = () => this.lookups.delete(backend);
      lookup.then(forget, forget);
    }
    return lookup;
  }
}
