/**
 * The limits of one scope — a backend (all its models) or one model of a backend: requests and tokens in sliding
 * windows (no span of one window ever admits more than the limit), and `max_concurrent` leased slots as
 * rate-limiter-flexible counters. A slot is a one-point counter whose window is the lease: the call frees it when it
 * ends, and a slot whose process died frees itself when its lease expires. Everything is taken all or none, so a call
 * that must wait holds nothing. An organization's share of a scope (docs/inference.md#organization-shares) is counted
 * the same way in a sub-scope of its own, with each limit scaled by the share.
 */
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimits } from '../config/inference-config.js';
import { type LimiterStore, windowCounter } from './limiter-store.js';
import { type SlidingWindow, slidingWindow, type WindowEntry } from './sliding-window.js';

/**
 * Which limit made a call wait: a scope's own (`requests`, `tokens`, `concurrency`), an organization's share of it
 * (`org_requests`, `org_tokens`, `org_concurrency`), or the backend's pause (`paused`).
 */
export type ThrottleReason =
  | 'requests'
  | 'tokens'
  | 'concurrency'
  | 'org_requests'
  | 'org_tokens'
  | 'org_concurrency'
  | 'paused';

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

/** The limits of a scope or of an organization's share of it (absent: no limit). */
interface PartLimits {
  requests: number | undefined;
  tokens: number | undefined;
  slots: number | undefined;
}

/** The reasons a scope, or a share of it, refuses with. */
interface Reasons {
  requests: ThrottleReason;
  tokens: ThrottleReason;
  concurrency: ThrottleReason;
}

const WHOLE: Reasons = { requests: 'requests', tokens: 'tokens', concurrency: 'concurrency' };
const SHARE: Reasons = { requests: 'org_requests', tokens: 'org_tokens', concurrency: 'org_concurrency' };

/**
 * An organization's part of a limit: `ceil(limit × share)`, at least 1. The product is rounded to 9 decimals first, so
 * that a share written in decimals is not pushed one over by binary rounding (10 × 0.3 is 3.0000000000000004: 3, not 4).
 * @param limit - the scope's limit, a positive integer
 * @param share - the organization's share, in (0, 1]
 */
export function shareOf(limit: number, share: number): number {
  return Math.max(1, Math.ceil(Number((limit * share).toFixed(9))));
}

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
   * Take one request, `estimatedTokens` tokens (at most a whole window's) and a slot of the scope, or nothing.
   * @param estimatedTokens - the call's token estimate
   * @returns the grant, or which limit refused and how long to wait
   */
  tryAcquire(estimatedTokens: number): Promise<ScopeGrant | ScopeRefusal> {
    const { requests_per_minute: requests, tokens_per_minute: tokens, max_concurrent: slots } = this.limits;
    return this.acquire(this.scope, { requests, tokens, slots }, estimatedTokens, WHOLE);
  }

  /**
   * Take one request, `estimatedTokens` tokens and a slot of an organization's share of the scope, or nothing: its
   * own sub-scope `<scope>|org:<key>`, counted like the scope (in Redis, or in memory) with each limit scaled by the
   * share ({@link shareOf}).
   * @param tenant - the organization's opaque key
   * @param share - its share of each limit, in (0, 1)
   * @param estimatedTokens - the call's token estimate
   * @returns the grant, or which of its share's limits refused and how long to wait
   */
  tryAcquireShare(tenant: string, share: number, estimatedTokens: number): Promise<ScopeGrant | ScopeRefusal> {
    const { requests_per_minute: requests, tokens_per_minute: tokens, max_concurrent: slots } = this.limits;
    const part = (limit: number | undefined) => (limit === undefined ? undefined : shareOf(limit, share));
    return this.acquire(
      `${this.scope}|org:${tenant}`,
      { requests: part(requests), tokens: part(tokens), slots: part(slots) },
      estimatedTokens,
      SHARE,
    );
  }

  private async acquire(
    key: string,
    limits: PartLimits,
    estimatedTokens: number,
    reasons: Reasons,
  ): Promise<ScopeGrant | ScopeRefusal> {
    const taken: WindowEntry[] = [];
    const rollback = async () => {
      for (const entry of taken) await entry.remove();
    };
    if (this.requests && limits.requests) {
      const request = await this.requests.take(key, 1, limits.requests);
      if ('waitMs' in request) return { reason: reasons.requests, waitMs: request.waitMs };
      taken.push(request);
    }
    const tokenLimit = this.tokens ? limits.tokens : undefined;
    const charged = tokenLimit ? Math.ceil(Math.min(estimatedTokens, tokenLimit)) : 0;
    let tokenEntry: WindowEntry | undefined;
    if (this.tokens && tokenLimit) {
      const entry = await this.tokens.take(key, charged, tokenLimit);
      if ('waitMs' in entry) {
        await rollback();
        return { reason: reasons.tokens, waitMs: entry.waitMs };
      }
      tokenEntry = entry;
      taken.push(entry);
    }
    const slot = await this.takeSlot(key, limits.slots);
    if (slot === null) {
      await rollback();
      return { reason: reasons.concurrency, waitMs: this.windows.slotPollMs };
    }
    const freeSlot = async () => {
      if (slot !== undefined) await this.slots!.delete(slot);
    };
    return {
      settle: async (usedTokens) => {
        await freeSlot();
        if (tokenEntry && tokenLimit && usedTokens !== undefined && usedTokens !== charged)
          await tokenEntry.reweigh(Math.ceil(Math.min(usedTokens, tokenLimit)));
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
   * @param key - the scope's (or share's) key: its slots are `<key>#0` to `<key>#<count - 1>`
   * @param count - its number of slots
   * @returns the slot's key; undefined when the scope has no concurrency limit; null when every slot is taken
   */
  private async takeSlot(key: string, count: number | undefined): Promise<string | undefined | null> {
    const { slots } = this;
    if (!slots || !count) return undefined;
    const start = Math.floor(Math.random() * count);
    for (let offset = 0; offset < count; offset++) {
      const slot = `${key}#${(start + offset) % count}`;
      try {
        await slots.consume(slot, 1);
        return slot;
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
      }
    }
    return null;
  }
}
