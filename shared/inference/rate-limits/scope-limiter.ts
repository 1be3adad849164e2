/**
 * The limits of one scope — a backend (all its models) or one model of a backend — as rate-limiter-flexible counters:
 * requests per window, tokens per window, and `max_concurrent` leased slots. A slot is a one-point counter whose
 * window is the lease: the call frees it when it ends, and a slot whose process died frees itself when its lease
 * expires. Everything is taken all or none, so a call that must wait holds nothing.
 */
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimits } from '../config/inference-config.js';
import { type LimiterStore, windowCounter } from './limiter-store.js';

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
}

/** A refusal: which limit, and how long until it may let the call through. */
export interface ScopeRefusal {
  reason: ThrottleReason;
  waitMs: number;
}

/**
 * Margin before a window's end within which points are not given back, in ms: a give-back reaching Redis after the
 * window expired would open the next window below zero, letting that window take more than its limit.
 */
const GIVE_BACK_MARGIN_MS = 250;

/**
 * Give back points a counter took, while the window they were taken in is surely still open.
 * @param windowEndsAt - when that window ends, in epoch ms
 */
async function giveBack(
  counter: RateLimiterAbstract,
  key: string,
  points: number,
  windowEndsAt: number,
): Promise<void> {
  if (Date.now() + GIVE_BACK_MARGIN_MS < windowEndsAt) await counter.reward(key, points);
}

/** The counters of one scope. */
export class ScopeLimiter {
  private readonly requests: RateLimiterAbstract | undefined;
  private readonly tokens: RateLimiterAbstract | undefined;
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
    this.requests = rpm ? windowCounter(store, 'requests', rpm, windows.windowSeconds) : undefined;
    this.tokens = tpm ? windowCounter(store, 'tokens', tpm, windows.windowSeconds) : undefined;
    this.slots = slots ? windowCounter(store, 'slots', 1, windows.leaseSeconds) : undefined;
  }

  /**
   * Take one request, `estimatedTokens` tokens (at most a whole window's) and a slot, or nothing.
   * @param estimatedTokens - the call's token estimate
   * @returns the grant, or which limit refused and how long to wait
   */
  async tryAcquire(estimatedTokens: number): Promise<ScopeGrant | ScopeRefusal> {
    const undo: (() => Promise<void>)[] = [];
    const rollback = async () => {
      for (const step of undo) await step();
    };
    const { requests, tokens } = this;
    if (requests) {
      const taken = await this.consume(requests, 'requests', 1);
      if (!(taken instanceof RateLimiterRes)) return taken;
      const windowEndsAt = Date.now() + taken.msBeforeNext;
      undo.push(() => giveBack(requests, this.scope, 1, windowEndsAt));
    }
    const charged = Math.min(estimatedTokens, this.limits.tokens_per_minute ?? 0);
    let tokenWindowEnd = 0;
    if (tokens && charged > 0) {
      const taken = await this.consume(tokens, 'tokens', charged);
      if (!(taken instanceof RateLimiterRes)) {
        await rollback();
        return taken;
      }
      tokenWindowEnd = Date.now() + taken.msBeforeNext;
      undo.push(() => giveBack(tokens, this.scope, charged, tokenWindowEnd));
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
        if (!tokens || usedTokens === undefined) return;
        const difference = Math.min(usedTokens, this.limits.tokens_per_minute ?? 0) - charged;
        if (difference > 0) await tokens.penalty(this.scope, difference);
        else if (difference < 0) await giveBack(tokens, this.scope, -difference, tokenWindowEnd);
      },
      cancel: async () => {
        await freeSlot();
        await rollback();
      },
    };
  }

  /**
   * Consume points, or say how long until the window has room. A refused consume still counted its points: a refused
   * request is left counted (its window is full anyway), refused tokens are given back (a smaller call may still fit).
   */
  private async consume(
    counter: RateLimiterAbstract,
    reason: ThrottleReason,
    points: number,
  ): Promise<RateLimiterRes | ScopeRefusal> {
    try {
      return await counter.consume(this.scope, points);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      if (reason === 'tokens') await giveBack(counter, this.scope, points, Date.now() + error.msBeforeNext);
      return { reason, waitMs: Math.max(1, error.msBeforeNext) };
    }
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
