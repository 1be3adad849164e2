/**
 * Cluster-wide provider rate limits (docs/inference.md#rate-limits): the gates of a deployment's routes, built from
 * the `rate_limits` of `backends.toml` (a backend's calls together) and of each model spec (that model's calls), over
 * one store — Redis, so every API and worker process counts together, or memory in direct mode — each organization's
 * share of them (docs/inference.md#organization-shares), and the backend pauses a provider's 429 with `Retry-After`
 * sets.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { providerFetch } from '../../net/index.js';
import type { InferenceConfig } from '../config/inference-config.js';
import type { Route } from '../config/model-router.js';
import { retryAfterSeconds } from '../provider-errors.js';
import { BackendPauses } from './backend-pauses.js';
import { CallGate, type ThrottleObserver, untagAttempt } from './call-gate.js';
import type { LimiterStore } from './limiter-store.js';
import { ScopeLimiter, type ScopeWindows } from './scope-limiter.js';

/** Length of the requests and tokens windows: the limits are per minute. */
const MINUTE_SECONDS = 60;
/** How often a call waiting for a concurrency slot asks again, in ms. */
const SLOT_POLL_MS = 50;
/**
 * Added to a slot's lease beyond its call's own bound (the SDK's retry backoff honours `Retry-After` up to a minute).
 */
const LEASE_ALLOWANCE_SECONDS = 60;

/** How the throttle is set up. */
export interface ThrottleOptions {
  store: LimiterStore;
  /** Longest a call may wait for admission, in ms (`INFERENCE_RATE_LIMIT_WAIT_MS`). */
  waitMs: number;
  /** Longest one provider call with its SDK retries may take, in ms (bounds a concurrency slot's lease). */
  callBoundMs: number;
  /** Told of admissions, refusals and pauses (metrics). */
  observer?: ThrottleObserver & { paused(backend: string, seconds: number): void };
  /** Window of the per-minute limits, in whole seconds: 60 (tests shorten it). */
  windowSeconds?: number;
  /**
   * An organization's share of each limit when its calls name none (`INFERENCE_ORG_RATE_SHARE`), in (0, 1]: 1 (no
   * cap) by default.
   */
  orgShare?: number;
}

const SILENT: NonNullable<ThrottleOptions['observer']> = {
  admitted: () => undefined,
  timedOut: () => undefined,
  paused: () => undefined,
};

/** The rate limits of a deployment. */
export class ProviderThrottle {
  readonly pauses: BackendPauses;
  private readonly scopes = new Map<string, ScopeLimiter | undefined>();
  private readonly gates = new Map<string, CallGate>();
  private readonly windows: ScopeWindows;
  private readonly observer: NonNullable<ThrottleOptions['observer']>;

  /**
   * @param config - the inference configuration (backends' and models' `rate_limits`)
   * @param options - store, wait deadline, call bound, observer
   */
  constructor(
    private readonly config: InferenceConfig,
    private readonly options: ThrottleOptions,
  ) {
    this.observer = options.observer ?? SILENT;
    this.pauses = new BackendPauses(options.store, (backend, seconds) => this.observer.paused(backend, seconds));
    this.windows = {
      windowSeconds: options.windowSeconds ?? MINUTE_SECONDS,
      leaseSeconds: Math.ceil(options.callBoundMs / 1000) + LEASE_ALLOWANCE_SECONDS,
      slotPollMs: SLOT_POLL_MS,
    };
  }

  /**
   * The gate of a route: its backend's limits, then its model's.
   * @param route - the route of a call
   */
  gate(route: Route): CallGate {
    const key = `${route.backend}/${route.modelId}`;
    let gate = this.gates.get(key);
    if (!gate) {
      const scopes = [
        this.scope(route.backend, this.config.backends[route.backend]?.rate_limits),
        this.scope(key, route.spec.rate_limits),
      ].filter((scope) => scope !== undefined);
      gate = new CallGate(
        route.backend,
        route.modelId,
        scopes,
        this.pauses,
        this.options.waitMs,
        this.observer,
        this.options.orgShare,
      );
      this.gates.set(key, gate);
    }
    return gate;
  }

  /**
   * A `fetch` for a backend's SDK: each HTTP attempt (the SDK's retries included) waits while the backend is paused
   * (or until the attempt's own signal aborts it) — a call's first attempt leaving right after its gate found the
   * backend unpaused does not look again — marks its call sent (its requests and tokens count from the first
   * attempt's departure), and a 429 answer with `Retry-After` pauses the backend for every
   * process at once, before the SDK sleeps and retries. The attempt itself is sent with {@link providerFetch}.
   * @param backend - the backend's name
   */
  pausingFetch(backend: string): typeof fetch {
    return async (input, tagged) => {
      const { admission, init } = untagAttempt(tagged);
      if (admission?.pauseCheckNeeded() ?? true) {
        for (let left = await this.pauses.remainingMs(backend); left > 0; left = await this.pauses.remainingMs(backend))
          await sleep(left, undefined, init?.signal ? { signal: init.signal } : {});
      }
      await admission?.sent();
      const response = await providerFetch(input, init);
      if (response.status === 429) {
        const seconds = retryAfterSeconds(response.headers, Date.now());
        if (seconds !== undefined) await this.pauses.pause(backend, seconds);
      }
      return response;
    };
  }

  private scope(key: string, limits: Route['spec']['rate_limits']): ScopeLimiter | undefined {
    if (!limits || Object.keys(limits).length === 0) return undefined;
    if (!this.scopes.has(key)) this.scopes.set(key, new ScopeLimiter(this.options.store, key, limits, this.windows));
    return this.scopes.get(key);
  }
}
