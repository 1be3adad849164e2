/**
 * Sliding-window limits (docs/inference.md#rate-limits): a log of the calls admitted within the last hold, each
 * entry weighted (1 for a request, the tokens charged for tokens), that admits a weight only when the log's total plus
 * that weight stays within the limit. Unlike a fixed window, no span of one hold ever holds more than the limit. The
 * log
 * lives in Redis (one Lua script per operation — {@link SLIDING_TAKE}, {@link SLIDING_REWEIGH}, {@link SLIDING_RESTAMP}
 * — every process
 * counts together on Redis's clock) or in this process's memory (direct mode). While Redis fails, a Redis log falls
 * back to a memory log of the same shape (the limits then hold per process) instead of failing calls.
 */
import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../../config/index.js';
import type { LimiterStore } from './limiter-store.js';
import { SLIDING_RESTAMP, SLIDING_REWEIGH, SLIDING_TAKE } from './sliding-window-scripts.js';

/** An admitted weight, counted until it leaves the window. */
export interface WindowEntry {
  /**
   * Change its weight, keeping its admission time (an estimate replaced by the real usage). An entry that has already
   * left the window is left alone; a change that cannot reach Redis is dropped (the entry keeps its weight until it
   * leaves).
   * @param weight - the new weight, a non-negative integer
   */
  reweigh(weight: number): Promise<void>;
  /** Give it back (its call was not made): the same as reweighing it to 0. */
  remove(): Promise<void>;
  /**
   * Move it to now: its call's request is leaving (the provider counts it from its arrival, not from its admission).
   * An entry already dropped from the window is added back. A move that cannot reach Redis is dropped.
   */
  restamp(): Promise<void>;
}

/** How long until a refused weight fits, in ms (> 0). */
export interface WindowWait {
  waitMs: number;
}

/** The sliding window of one limit (e.g. `requests`), keyed by scope. */
export interface SlidingWindow {
  /** Weight a scope's window admits. */
  readonly limit: number;
  /**
   * Admit a weight now, or nothing.
   * @param scope - the scope's key, e.g. `openai`, `openai/gpt-4o` or an organization's share `openai|org:org_1`
   * @param weight - a non-negative integer, at most the limit
   * @param limit - the scope's own limit when it is not the window's (an organization's share of it), a positive
   *   integer
   * @returns the entry, or how long until the oldest entries whose leaving makes room have left
   */
  take(scope: string, weight: number, limit?: number): Promise<WindowEntry | WindowWait>;
}

/** This process's entry ids: a random token and a counter, unique across processes. */
const PROCESS_TOKEN = randomBytes(6).toString('hex');
let entrySequence = 0;

function nextEntryId(): string {
  entrySequence += 1;
  return `${PROCESS_TOKEN}:${entrySequence}`;
}

interface MemoryEntry {
  at: number;
  weight: number;
}

/** A sliding log in this process's memory, on the monotonic clock. */
class MemorySlidingWindow implements SlidingWindow {
  private readonly logs = new Map<string, { entries: MemoryEntry[]; sum: number }>();

  constructor(
    readonly limit: number,
    private readonly holdMs: number,
  ) {}

  async take(scope: string, weight: number, limit = this.limit): Promise<WindowEntry | WindowWait> {
    const now = performance.now();
    let log = this.logs.get(scope);
    if (!log) {
      log = { entries: [], sum: 0 };
      this.logs.set(scope, log);
    }
    const live = log.entries.findIndex((entry) => entry.at > now - this.holdMs);
    const gone = log.entries.splice(0, live === -1 ? log.entries.length : live);
    for (const entry of gone) log.sum -= entry.weight;
    if (log.sum + weight > limit) {
      let excess = log.sum + weight - limit;
      for (const entry of log.entries) {
        excess -= entry.weight;
        if (excess <= 0) return { waitMs: Math.max(1, Math.ceil(entry.at + this.holdMs - now)) };
      }
      return { waitMs: this.holdMs };
    }
    const entry: MemoryEntry = { at: now, weight };
    log.entries.push(entry);
    log.sum += weight;
    const owner = log;
    const reweigh = async (next: number) => {
      const at = owner.entries.indexOf(entry);
      if (at === -1) return;
      owner.sum += next - entry.weight;
      entry.weight = next;
      if (next === 0) owner.entries.splice(at, 1);
    };
    const restamp = async () => {
      if (entry.weight === 0) return;
      const at = owner.entries.indexOf(entry);
      if (at === -1) owner.sum += entry.weight;
      else owner.entries.splice(at, 1);
      entry.at = performance.now();
      owner.entries.push(entry);
    };
    return { reweigh, remove: () => reweigh(0), restamp };
  }
}

/**
 * The connection with the sliding-window scripts defined on it (ioredis `defineCommand`: `EVALSHA`, loading on a miss).
 */
type ScriptedRedis = RedisClient & {
  mthdsSlidingTake(
    log: string,
    sum: string,
    holdMs: number,
    limit: number,
    weight: number,
    id: string,
  ): Promise<[number, number]>;
  mthdsSlidingReweigh(log: string, sum: string, member: string, weight: number): Promise<number>;
  mthdsSlidingRestamp(log: string, sum: string, holdMs: number, member: string): Promise<number>;
};

/** A sliding log in Redis, insured by a memory log while Redis fails. */
class RedisSlidingWindow implements SlidingWindow {
  private readonly scripted: ScriptedRedis;

  constructor(
    client: RedisClient,
    private readonly keyPrefix: string,
    readonly limit: number,
    private readonly holdMs: number,
    private readonly insurance: MemorySlidingWindow,
  ) {
    client.defineCommand('mthdsSlidingTake', { numberOfKeys: 2, lua: SLIDING_TAKE });
    client.defineCommand('mthdsSlidingReweigh', { numberOfKeys: 2, lua: SLIDING_REWEIGH });
    client.defineCommand('mthdsSlidingRestamp', { numberOfKeys: 2, lua: SLIDING_RESTAMP });
    this.scripted = client as ScriptedRedis;
  }

  async take(scope: string, weight: number, limit = this.limit): Promise<WindowEntry | WindowWait> {
    const log = `${this.keyPrefix}{${scope}}`;
    const sum = `${log}:sum`;
    const id = nextEntryId();
    let answer: [number, number];
    try {
      answer = await this.scripted.mthdsSlidingTake(log, sum, this.holdMs, limit, weight, id);
    } catch {
      return this.insurance.take(scope, weight, limit);
    }
    if (answer[0] === 0) return { waitMs: Math.max(1, answer[1]) };
    let member = `${id}|${weight}`;
    const reweigh = async (next: number) => {
      try {
        await this.scripted.mthdsSlidingReweigh(log, sum, member, next);
      } catch {
        return;
      }
      member = `${id}|${next}`;
    };
    const restamp = async () => {
      if (member.endsWith('|0')) return;
      await this.scripted.mthdsSlidingRestamp(log, sum, this.holdMs, member).catch(() => undefined);
    };
    return { reweigh, remove: () => reweigh(0), restamp };
  }
}

/**
 * The sliding window of one limit.
 * @param store - Redis (keys `<keyPrefix>:ratelimit:<name>:{<scope>}` and `…:sum`) or memory
 * @param name - what it counts (`requests`, `tokens`): part of its Redis keys
 * @param limit - weight any span of `holdMs` may admit, a positive integer
 * @param holdMs - how long an entry counts, in ms
 */
export function slidingWindow(store: LimiterStore, name: string, limit: number, holdMs: number): SlidingWindow {
  const memory = new MemorySlidingWindow(limit, holdMs);
  if (store.kind === 'memory') return memory;
  return new RedisSlidingWindow(store.client, `${store.keyPrefix}:ratelimit:${name}:`, limit, holdMs, memory);
}
