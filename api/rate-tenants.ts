/**
 * Whose share of the provider rate limits a run's calls count against, at the edge
 * (docs/inference.md#organization-shares): the caller's organization, and the share an operator gave it, if any.
 *
 * An organization's own share is read from the control plane and kept {@link RATE_SHARE_CACHE_TTL_MS} per process, so
 * a busy organization costs one database read every few seconds and a changed share reaches new runs within that
 * time. A read that fails (the control plane down) counts as no share of its own, kept as long, so runs are still
 * accepted, at the deployment's share.
 */
import { LRUCache } from 'lru-cache';
import type { RateTenant } from '../shared/inference/index.js';
import { DEPLOYMENT_PRINCIPAL, type Identity } from './middleware/authenticate.js';
import type { Tenancy } from './tenancy.js';

/** Longest an organization's share is reused, in ms. */
export const RATE_SHARE_CACHE_TTL_MS = 4000;

/** Most organizations' shares one process keeps. */
const CACHED_SHARES_MAX = 10_000;

/** An organization's own share of the provider rate limits, in (0, 1]; null when it has none. */
export type RateShareLookup = (organizationId: string) => Promise<number | null>;

/**
 * Build the lookup of organizations' own shares.
 * @param tenancy - the repositories, once the control plane is open
 * @param options - the clock of the cache, epoch ms
 * @returns a lookup that never rejects
 */
export function rateShareLookup(tenancy: Promise<Tenancy>, options: { now: () => number }): RateShareLookup {
  const shares = new LRUCache<string, { share: number | null }>({
    max: CACHED_SHARES_MAX,
    ttl: RATE_SHARE_CACHE_TTL_MS,
    ttlResolution: 0,
    perf: { now: options.now },
    fetchMethod: async (id) => {
      try {
        return { share: (await (await tenancy).organizations.find(id))?.inferenceRateShare ?? null };
      } catch {
        return { share: null };
      }
    },
  });
  return async (id) => (await shares.fetch(id))?.share ?? null;
}

/**
 * The organization a caller's run counts against: its organization (its API key's, or its JWT's `org_id` claim) with
 * the share an operator gave it, else a JWT caller itself (its `user_id`, at the deployment's share).
 * @param identity - the authenticated caller
 * @param shares - the organizations' own shares, served with a control plane
 * @returns the run's organization; undefined for the deployment principal, whose runs are not capped
 */
export async function runRateTenant(identity: Identity, shares?: RateShareLookup): Promise<RateTenant | undefined> {
  const organization = identity.organizationId;
  if (organization === undefined)
    return identity.userId === DEPLOYMENT_PRINCIPAL ? undefined : { key: identity.userId };
  const share = shares ? await shares(organization) : null;
  return share === null ? { key: organization } : { key: organization, share };
}
