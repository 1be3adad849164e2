/**
 * Real-Redis helpers for tests: a unique key prefix per test run (so runs share the machine's Redis safely) and a
 * cleanup that deletes every key under it.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The machine's Redis (CI starts one when missing). */
export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** A fresh prefix, unique to this process and call. */
export function uniquePrefix(): string {
  return `test-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Delete every key of a prefix.
 * @param prefix - a prefix from {@link uniquePrefix}
 * @param url - the Redis URL
 */
export async function deletePrefix(prefix: string, url = TEST_REDIS_URL): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
