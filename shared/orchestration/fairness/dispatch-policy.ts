/**
 * An owner's terms at the dispatch gate (docs/fair-dispatch.md#shares): its limits, from the deployment's settings
 * times its share, and its priority ceiling — the deployment's defaults, or its organization's own where the control
 * plane keeps them, read through a short cache so a start costs no database round trip.
 */
import { LRUCache } from 'lru-cache';
import type { DispatchLimits } from '../registry/index.js';

/** An owner's terms. */
export interface DispatchTerms {
  limits: DispatchLimits;
  /** The highest `priority` its runs may ask for (0–10). */
  priorityCeiling: number;
}

/** The deployment's defaults (`RUN_ORG_IN_FLIGHT_LIMIT`, `RUN_ORG_WAITING_LIMIT`, `RUN_PRIORITY_CEILING`). */
export interface DispatchDefaults {
  orgInFlightLimit: number;
  orgWaitingLimit: number;
  priorityCeiling: number;
}

/** An organization's own terms, as the control plane keeps them. */
export interface OwnTerms {
  runShare: number;
  priorityCeiling: number | null;
}

/** Where an owner's terms come from. */
export interface DispatchPolicy {
  /**
   * The terms of an owner.
   * @param owner - the run's owner (its organization, or `single-tenant`)
   * @returns its terms; the defaults while its organization's own cannot be read within a second (the control plane is
   *   down or busy)
   */
  termsOf(owner: string): Promise<DispatchTerms>;
}

/** How long an organization's own terms are cached, in ms: a change applies within this. */
const TERMS_TTL_MS = 10_000;
/** Most organizations whose terms are cached. */
const TERMS_CACHED = 10_000;
/** Longest a start waits for an organization's own terms, in ms, before it is held to the defaults. */
const TERMS_WAIT_MS = 1000;

function termsFrom(defaults: DispatchDefaults, own: OwnTerms | undefined): DispatchTerms {
  const share = own?.runShare ?? 1;
  return {
    limits: { inFlight: defaults.orgInFlightLimit * share, waiting: defaults.orgWaitingLimit },
    priorityCeiling: own?.priorityCeiling ?? defaults.priorityCeiling,
  };
}

/**
 * The policy of a deployment.
 * @param defaults - the settings
 * @param ownTerms - reads an organization's own terms (undefined: none kept, e.g. no control plane or no such
 *   organization); absent: every owner has the defaults
 */
export function dispatchPolicy(
  defaults: DispatchDefaults,
  ownTerms?: (owner: string) => Promise<OwnTerms | undefined>,
): DispatchPolicy {
  if (!ownTerms) {
    const terms = termsFrom(defaults, undefined);
    return { termsOf: async () => terms };
  }
  const cache = new LRUCache<string, DispatchTerms>({
    max: TERMS_CACHED,
    ttl: TERMS_TTL_MS,
    fetchMethod: async (owner) => termsFrom(defaults, await ownTerms(owner)),
  });
  const fallback = termsFrom(defaults, undefined);
  return {
    // a fresh cached copy answers without arming a timer; while the control plane is down, a run is held to the
    // defaults rather than refused
    termsOf: async (owner) =>
      cache.get(owner) ??
      (await cache.fetch(owner, { signal: AbortSignal.timeout(TERMS_WAIT_MS) }).catch(() => undefined)) ??
      fallback,
  };
}
