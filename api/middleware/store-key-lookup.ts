/**
 * Verifying the API keys of organizations (`plx_sk_…`) against the control plane, with a short cache in front of it
 * (docs/api.md#api-keys).
 *
 * Each verdict of the store — this key speaks for that organization, or no active key is this one — is kept
 * {@link STORE_KEY_CACHE_TTL_MS} at most, by the key's SHA-256 digest (never the plaintext), so a busy key costs one
 * database read per process every few seconds, and a revoked key is refused on every replica within that time (plus the
 * one read). A cached key past its `expires_at` is refused at once, without asking the store. Concurrent first uses of
 * one key share one read. Each successful verification records the key's use (`last_used_at`, written at most once a
 * minute, off the request path).
 */
import { LRUCache } from 'lru-cache';
import { apiKeyDigest } from '../../shared/database/index.js';
import type { Tenancy } from '../tenancy.js';
import type { Identity, StoreKeyLookup } from './authenticate.js';

/**
 * Longest a verdict of the store is reused, in ms: under the 5 s within which a revoked key must be refused on every
 * replica.
 */
export const STORE_KEY_CACHE_TTL_MS = 4000;

/** Most verdicts one process keeps. */
const CACHED_VERDICTS_MAX = 10_000;

/** A verified key as cached: its id, organization and expiry (epoch ms, null for never); `false` for no such key. */
type Verdict = { id: string; organizationId: string; expiresAtMs: number | null } | false;

/** How the lookup behaves. */
export interface StoreKeyLookupOptions {
  /** The clock of the cache and of expiry, epoch ms. */
  now: () => number;
  /** How long a verdict is reused, in ms; {@link STORE_KEY_CACHE_TTL_MS} by default (and at most). */
  ttlMs?: number;
}

/**
 * The identity an organization's key gives its caller: the organization owns the caller's runs and is the first
 * segment of its storage scopes (docs/run-ownership.md#who-owns-a-run).
 * @param keyId - the key's id
 * @param organizationId - its organization
 */
function keyIdentity(keyId: string, organizationId: string): Identity {
  return { userId: organizationId, storageScopes: [], operator: false, organizationId, keyId };
}

/**
 * Build the lookup of `plx_sk_…` tokens the authentication middleware uses.
 * @param tenancy - the repositories, once the control plane is open
 * @param options - the clock and the cache's lifetime
 * @returns a lookup that resolves to the key's identity, or to undefined for a key that is unknown, revoked or
 *   expired; it rejects when the control plane cannot be read
 */
export function storeKeyLookup(tenancy: Promise<Tenancy>, options: StoreKeyLookupOptions): StoreKeyLookup {
  const { now } = options;
  const verdicts = new LRUCache<string, Verdict, string>({
    max: CACHED_VERDICTS_MAX,
    ttl: Math.min(options.ttlMs ?? STORE_KEY_CACHE_TTL_MS, STORE_KEY_CACHE_TTL_MS),
    ttlResolution: 0,
    perf: { now },
    fetchMethod: async (_digest, _stale, { context: token }) => {
      const verified = await (await tenancy).apiKeys.verify(token);
      if (!verified) return false;
      const { id, organizationId, expiresAt } = verified;
      return { id, organizationId, expiresAtMs: expiresAt === null ? null : expiresAt.getTime() };
    },
  });
  return async (token) => {
    const verdict = await verdicts.fetch(apiKeyDigest(token), { context: token });
    if (!verdict || (verdict.expiresAtMs !== null && verdict.expiresAtMs <= now())) return undefined;
    void (await tenancy).apiKeys.touch(verdict.id);
    return keyIdentity(verdict.id, verdict.organizationId);
  };
}
