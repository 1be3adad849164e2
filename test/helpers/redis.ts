/**
 * Real-Redis helpers for tests: the Redis they target (the machine's, or the one `TEST_REDIS_URL` names, over TLS with
 * the `TEST_REDIS_TLS_*` files when it is `rediss://`: scripts/queue-suites-over-tls.sh), a unique key prefix per test
 * run (so runs share that Redis safely) and a cleanup that deletes every key under it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Redis, type RedisOptions } from 'ioredis';
import type { RedisTarget } from '../../shared/config/index.js';

/** The machine's Redis (CI starts one when missing), or `TEST_REDIS_URL` (a `rediss://` URL with an ACL user…). */
export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * The TLS files of {@link TEST_REDIS_URL} as the service reads them (`REDIS_TLS_CA_FILE`, `REDIS_TLS_CERT_FILE`,
 * `REDIS_TLS_KEY_FILE`), taken from `TEST_REDIS_TLS_CA_FILE`, `TEST_REDIS_TLS_CERT_FILE` and `TEST_REDIS_TLS_KEY_FILE`;
 * named apart so that services a test points at a plain Redis of its own do not inherit them.
 */
const TLS_FILES: Record<string, string> = Object.fromEntries(
  (['CA', 'CERT', 'KEY'] as const).flatMap((kind) => {
    const file = process.env[`TEST_REDIS_TLS_${kind}_FILE`];
    return file ? [[`REDIS_TLS_${kind}_FILE`, file]] : [];
  }),
);

/**
 * The service variables that point a deployment at the test Redis: `REDIS_URL` and, for a `rediss://` URL, the TLS
 * files. Spread it where a test's environment would give `REDIS_URL: TEST_REDIS_URL`.
 */
export const TEST_REDIS_ENVIRONMENT: Readonly<Record<string, string>> = { REDIS_URL: TEST_REDIS_URL, ...TLS_FILES };

/** The test Redis as a {@link RedisTarget}, for the service's own `openRedis`. */
export const TEST_REDIS_TARGET: RedisTarget = {
  url: TEST_REDIS_URL,
  ...(Object.keys(TLS_FILES).length > 0 || TEST_REDIS_URL.startsWith('rediss:')
    ? {
        tls: {
          ...(TLS_FILES['REDIS_TLS_CA_FILE'] ? { caFile: TLS_FILES['REDIS_TLS_CA_FILE'] } : {}),
          ...(TLS_FILES['REDIS_TLS_CERT_FILE'] ? { certFile: TLS_FILES['REDIS_TLS_CERT_FILE'] } : {}),
          ...(TLS_FILES['REDIS_TLS_KEY_FILE'] ? { keyFile: TLS_FILES['REDIS_TLS_KEY_FILE'] } : {}),
        },
      }
    : {}),
};

/** ioredis TLS options of the test Redis (its PEM files read once), none for a plain one. */
const TLS_OPTIONS: RedisOptions = TEST_REDIS_TARGET.tls
  ? {
      tls: {
        ...(TEST_REDIS_TARGET.tls.caFile ? { ca: readFileSync(TEST_REDIS_TARGET.tls.caFile) } : {}),
        ...(TEST_REDIS_TARGET.tls.certFile ? { cert: readFileSync(TEST_REDIS_TARGET.tls.certFile) } : {}),
        ...(TEST_REDIS_TARGET.tls.keyFile ? { key: readFileSync(TEST_REDIS_TARGET.tls.keyFile) } : {}),
      },
    }
  : {};

/**
 * A test's own ioredis connection to the test Redis (with its TLS files when it is `rediss://`); the caller
 * disconnects it.
 * @param options - ioredis options (`maxRetriesPerRequest`…)
 */
export function testRedis(options: RedisOptions = {}): Redis {
  return new Redis(TEST_REDIS_URL, { ...options, ...TLS_OPTIONS });
}

/** A fresh prefix, unique to this process and call. */
export function uniquePrefix(): string {
  return `test-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Delete every key of a prefix on the test Redis.
 * @param prefix - a prefix from {@link uniquePrefix}
 */
export async function deletePrefix(prefix: string): Promise<void> {
  const redis = testRedis({ maxRetriesPerRequest: 1 });
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
