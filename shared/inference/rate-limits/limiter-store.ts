/**
 * Where rate-limit counters live (docs/inference.md#rate-limits): the deployment's Redis, shared by every API and
 * worker process, or this process's memory (direct mode, where one process makes every call). Requests and tokens are
 * counted in sliding windows (`sliding-window.ts`); concurrency slots and backend pauses are rate-limiter-flexible
 * counters, made here. A Redis counter falls back to an in-memory one of the same shape while Redis fails (its
 * `insuranceLimiter`), so a Redis outage degrades the limits to per-process ones instead of failing calls.
 */

import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RedisClient } from '../../config/index.js';

/** The counters' store: Redis (keys under `<keyPrefix>:ratelimit:`) or process memory. */
export type LimiterStore = { kind: 'memory' } | { kind: 'redis'; client: RedisClient; keyPrefix: string };

/**
 * A fixed-window counter of `points` per `durationSeconds` window (the window starts at its first point): a slot's
 * lease, a backend's pause.
 * @param store - Redis or memory
 * @param name - what it counts (`slots`, `pause`): part of its Redis keys
 * @param points - points a window holds
 * @param durationSeconds - window length in whole seconds (Redis expiries are whole seconds)
 */
export function windowCounter(
  store: LimiterStore,
  name: string,
  points: number,
  durationSeconds: number,
): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix: name, points, duration: durationSeconds });
  if (store.kind === 'memory') return memory;
  return new RateLimiterRedis({
    storeClient: store.client,
    keyPrefix: `${store.keyPrefix}:ratelimit:${name}`,
    points,
    duration: durationSeconds,
    insuranceLimiter: memory,
  });
}
