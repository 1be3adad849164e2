/**
 * The limits of one scope — a backend (all its models) or one model of a backend: requests and tokens in sliding
 * windows (no span of one window ever admits more than the limit), and `max_concurrent` leased slots as
 * rate-limiter-flexible counters. A slot is a one-point counter whose window is the lease: the call frees it when it
 * ends, and a slot whose process died frees itself when its lease expires. Everything is taken all or none, so a call
 * that must wait holds nothing.
 */
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimits } from '../config/inference-config.js';
import { type LimiterStore, windowCounter } from './limiter-store.js';
import { type SlidingWindow, slidingWindow, type WindowEntry } from './sliding-window.js';

/** Which limit made a call wait. */
export type ThrottleReason = 'requests' | 'tokens' | 'concurrency' | 'paused';

/** Windows of a scope's counters. */
export interface ScopeWindows {
  /** Length of the requests and tokens windows in seconds (60: the limits are per minute; tests shorten it). */
  windowSeconds: number;
  /** Longest a slot is held when its call never frees it (its process died), in seconds. */
  leaseSeconds: number;
  /** How often a call waiting for a slot asks again, in ms (slots freed in other processes are not signalled). */
  slotPollMs: number;
}

/** What a call holds of a scope once admitted. */
export interface ScopeGrant {
  /**
   * The call ended: free its slot and correct its token estimate with what it really used.
   * @param usedTokens - input plus output tokens the provider reported; undefined when the call failed (the estimate
   *   stands)
   */
  settle(usedTokens: number | undefined): Promise<void>;
  /** The call will not be made: give back its request, its tokens and its slot. */
  cancel(): Promise<void>;
  /** The call's request is leaving now: count its request and tokens from now on rather than from its admission. */
  sent(): Promise<void>;
}

/** A refusal: which limit, and how long until it may let the call through. */
export interface ScopeRefusal {
  reason: ThrottleReason;
  waitMs: number;
}

/**
 * How long past its window a call still counts, in ms: the time its request may take from being counted (when it
 * leaves, or when it was admitted for SDKs whose requests the throttle does not see) to its arrival at the provider,
 * so that the provider, which counts arrivals, never sees more than the limit in a window either.
 */
const SEND_ALLOWANCE_MS = 1000;

/** The counters of one scope. */
export class ScopeLimiter {
  private readonly requests: SlidingWindow | undefined;
  private readonly tokens: SlidingWindow | undefined;
  private readonly slots: RateLimiterAbstract | undefined;

  /**
   * @param store - Redis or memory
   * @param scope - the scope's key, e.g. `openai` or `openai/gpt-4o`
   * @param limits - the configured limits (a missing key sets no limit)
   * @param windows - window, lease and poll lengths
   */
  constructor(
    store: LimiterStore,
    readonly scope: string,
    readonly limits: RateLimits,
    private readonly windows: ScopeWindows,
  ) {
    const { requests_per_minute: rpm, tokens_per_minute: tpm, max_concurrent: slots } = limits;
    const holdMs = windows.windowSeconds * 1000 + SEND_ALLOWANCE_MS;
    this.requests = rpm ? slidingWindow(store, 'requests', rpm, holdMs) : undefined;
    this.tokens = tpm ? slidingWindow(store, 'tokens', tpm, holdMs) : undefined;
    this.slots = slots ? windowCounter(store, 'slots', 1, windows.leaseSeconds) : undefined;
  }

  /**
   * Take one request, `estimatedTokens` tokens (at most a whole window's) and a slot, or nothing.
   * @param estimatedTokens - the call's token estimate
   * @returns the grant, or which limit refused and how long to wait
   */
  async tryAcquire(estimatedTokens: number): Promise<ScopeGrant | ScopeRefusal> {
    const taken: WindowEntry[] = [];
    const rollback = async () => {
      for (const entry of taken) await entry.remove();
    };
    if (this.requests) {
      const request = await this.requests.take(this.scope, 1);
      if ('waitMs' in request) return { reason: 'requests', waitMs: request.waitMs };
      taken.push(request);
    }
    const { tokens } = this;
    const charged = tokens ? Math.ceil(Math.min(estimatedTokens, tokens.limit)) : 0;
    let tokenEntry: WindowEntry | undefined;
    if (tokens) {
      const entry = await tokens.take(this.scope, charged);
      if ('waitMs' in entry) {
        await rollback();
        return { reason: 'tokens', waitMs: entry.waitMs };
      }
      tokenEntry = entry;
      taken.push(entry);
    }
    const slot = await this.takeSlot();
    if (slot === null) {
      await rollback();
      return { reason: 'concurrency', waitMs: this.windows.slotPollMs };
    }
    const freeSlot = async () => {
      if (slot !== undefined) await this.slots!.delete(slot);
    };
    return {
      settle: async (usedTokens) => {
        await freeSlot();
        if (tokenEntry && tokens && usedTokens !== undefined && usedTokens !== charged)
          await tokenEntry.reweigh(Math.ceil(Math.min(usedTokens, tokens.limit)));
      },
      cancel: async () => {
        await freeSlot();
        await rollback();
      },
      sent: async () => {
        await Promise.all(taken.map((entry) => entry.restamp()));
      },
    };
  }

  /**
   * Lease a free slot, starting from a random one so processes do not all contend for the first.
   * @returns the slot's key; undefined when the scope has no concurrency limit; null when every slot is taken
   */
  private async takeSlot(): Promise<string | undefined | null> {
    const { slots } = this;
    const count = this.limits.max_concurrent;
    if (!slots || !count) return undefined;
    const start = Math.floor(Math.random() * count);
    for (let offset = 0; offset < count; offset++) {
      const key = `${this.scope}#${(start + offset) % count}`;
      try {
        await slots.consume(key, 1);
        return key;
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
      }
    }
    return null;
  }
}
