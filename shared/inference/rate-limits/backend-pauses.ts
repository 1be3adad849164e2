/**
 * Backend pauses: a provider that answered 429 with `Retry-After` is called by no process until then. A pause is a
 * blocked key of a rate-limiter-flexible counter (in Redis, so every worker sees it; in memory in direct mode).
 *
 * With Redis, a process keeps what it last learnt of a backend's pause for {@link PAUSE_KNOWLEDGE_MS}: the calls of that
 * time read it from memory instead of from Redis (docs/inference.md#rate-limits), so a pause set by another process is
 * seen within that time, and one set by this process at once.
 */
import { LRUCache } from 'lru-cache';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { type LimiterStore, windowCounter } from './limiter-store.js';

/** How long a process trusts what it learnt of a backend's pause from Redis, in ms. */
export const PAUSE_KNOWLEDGE_MS = 250;

/** Backends whose pause a process remembers at once (a deployment configures a handful). */
const KNOWN_BACKENDS = 256;

/** The pauses of every backend of a deployment. */
export class BackendPauses {
  private readonly blocks: RateLimiterAbstract;
  /** The lookup of each backend's pause under way: the calls that ask meanwhile share it. */
  private readonly lookups = new Map<string, Promise<number>>();
  /** With Redis: the end of each backend's pause as last learnt (epoch ms; 0 when it was not paused). */
  private readonly known: LRUCache<string, number> | undefined;

  /**
   * @param store - Redis (shared pauses) or memory
   * @param onPause - told of each pause set, with its length in seconds
   */
  constructor(
    store: LimiterStore,
    private readonly onPause: (backend: string, seconds: number) => void = () => undefined,
  ) {
    this.blocks = windowCounter(store, 'pause', 1, 1);
    this.known =
      store.kind === 'redis'
        ? new LRUCache({ max: KNOWN_BACKENDS, ttl: PAUSE_KNOWLEDGE_MS, perf: { now: () => Date.now() } })
        : undefined;
  }

  /**
   * Pause a backend for every process. A pause never shortens a longer one already set.
   * @param backend - the backend's name in `backends.toml`
   * @param seconds - the provider's `Retry-After`, rounded up to whole seconds (Redis expiries are whole seconds)
   */
  async pause(backend: string, seconds: number): Promise<void> {
    const whole = Math.ceil(seconds);
    if (whole <= 0 || (await this.lookUp(backend)) >= whole * 1000) return;
    // what this process learnt is about to be wrong: until the pause is set, its calls look it up
    this.known?.delete(backend);
    await this.blocks.block(backend, whole);
    this.learn(backend, whole * 1000);
    this.onPause(backend, whole);
  }

  /**
   * How long a backend stays paused: from what this process learnt within {@link PAUSE_KNOWLEDGE_MS}, else looked
   * up. Calls asking while a lookup of the same backend is under way share its answer (one Redis round trip for a
   * burst of calls, not one each).
   * @param backend - the backend's name
   * @returns milliseconds left, 0 when it is not paused
   */
  remainingMs(backend: string): Promise<number> {
    const until = this.known?.get(backend);
    if (until !== undefined) return Promise.resolve(Math.max(0, until - Date.now()));
    return this.lookUp(backend);
  }

  private lookUp(backend: string): Promise<number> {
    let lookup = this.lookups.get(backend);
    if (!lookup) {
      lookup = this.blocks.get(backend).then((state) => {
        const left = state && state.consumedPoints > this.blocks.points ? Math.max(0, state.msBeforeNext) : 0;
        this.learn(backend, left);
        return left;
      });
      this.lookups.set(backend, lookup);
      const forget = () => this.lookups.delete(backend);
      lookup.then(forget, forget);
    }
    return lookup;
  }

  /**
   * Remember a backend's pause as learnt now: a pause is never shortened, so an answer read before a pause this
   * process knows of does not replace it.
   * @param backend - the backend's name
   * @param leftMs - how long it stays paused, ms (0: not paused)
   */
  private learn(backend: string, leftMs: number): void {
    if (!this.known) return;
    const until = leftMs > 0 ? Date.now() + leftMs : 0;
    this.known.set(backend, Math.max(until, this.known.get(backend) ?? 0));
  }
}
