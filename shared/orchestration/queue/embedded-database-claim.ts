/**
 * One API process per deployment on the embedded control-plane database (docs/control-plane.md#where-it-lives): in
 * queue mode the API processes share a Redis, so the one that opens the embedded database holds a lease there, and
 * another finding it held refuses to boot. The lease is refreshed while the process lives and lapses soon after a
 * crash.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { RedisClient } from '../../config/index.js';
import { SettingsError } from '../../config/index.js';
import { swallowedErrors } from '../../observability/index.js';

/** How long the lease outlives its holder's last refresh, in ms; it is refreshed every quarter of that. */
const LEASE_MS = 20_000;

/** Extends the lease when this process still holds it: 1, else 0. */
const REFRESH = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;
/** Drops the lease when this process still holds it. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

/**
 * Take the lease, or refuse.
 * @param redis - a connection of the deployment's Redis (commands wait while it is down)
 * @param key - the lease's key (`QueueKeys.embeddedDatabaseHolder`)
 * @returns a function that gives the lease up (on shutdown)
 * @throws SettingsError (one line naming DATABASE_URL) when another process holds it
 */
export async function claimEmbeddedDatabase(redis: RedisClient, key: string): Promise<() => Promise<void>> {
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const taken = await redis.set(key, holder, 'PX', LEASE_MS, 'NX');
  if (taken !== 'OK') {
    const other = await redis.get(key);
    throw new SettingsError([
      `DATABASE_URL: required for more than one API process: another API process of this deployment (${other ?? 'unknown'}) uses the embedded database (set DATABASE_URL to a PostgreSQL server shared by every API process)`,
    ]);
  }
  const refresh = setInterval(() => {
    redis
      .eval(REFRESH, 1, key, holder, String(LEASE_MS))
      .catch((error: unknown) => swallowedErrors.report('control-plane:embedded-lease', error));
  }, LEASE_MS / 4);
  refresh.unref();
  return async () => {
    clearInterval(refresh);
    await redis
      .eval(RELEASE, 1, key, holder)
      .catch((error: unknown) => swallowedErrors.report('control-plane:embedded-lease', error));
  };
}
