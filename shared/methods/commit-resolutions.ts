/**
 * The resolution cache of `method_ref` fetches (spec §2.2; docs/methods.md#resolution-cache): which commit a
 * repository's tag or HEAD named when `git ls-remote` last answered, kept in process memory so that a clone-cache hit
 * needs no network at all.
 *
 * - A resolution is fresh for `METHOD_REF_RESOLVE_TTL_SECONDS` (a tag) or `METHOD_REF_HEAD_RESOLVE_TTL_SECONDS` (HEAD,
 *   which moves with every push); a fresh one is used as is.
 * - An expired one is resolved again; concurrent resolutions of one (repository, ref) share one `git ls-remote`.
 * - Stale-if-error: when that resolution fails because the git host could not be reached ({@link isHostUnavailable}),
 *   the expired resolution stands in (the caller logs a warning); it stays expired, so the next request asks again. Any
 *   other failure (the tag is gone, no HEAD, a refused host) is final and forgets the resolution.
 * - At most {@link MAX_RESOLUTIONS} resolutions are kept, the least recently used dropped first.
 *
 * lru-cache does all of it: `fetch()` with a per-entry `ttl`, de-duplicated loads, and `allowStaleOnFetchRejection`
 * turned on by the load itself when the failure is an unreachable host.
 */
import { LRUCache } from 'lru-cache';
import type { MethodFetchError } from '../errors/index.js';
import { isHostUnavailable } from './host-unavailable.js';

/** How long a resolution stays fresh, in seconds (0: never, every request resolves again). */
export interface ResolutionTtls {
  /** `METHOD_REF_RESOLVE_TTL_SECONDS`: a `@tag` reference. */
  tagSeconds: number;
  /** `METHOD_REF_HEAD_RESOLVE_TTL_SECONDS`: a bare address (the default branch at HEAD). */
  headSeconds: number;
}

/**
 * The commit a reference names, and how it was obtained: `cached` (a fresh resolution, no network), `resolved` (by
 * `git ls-remote` just now), or `stale` (an expired resolution standing in for a host that could not be reached;
 * `error`
 * is that failure, for the warning).
 */
export type CommitResolution =
  | { sha: string; via: 'cached' | 'resolved' }
  | { sha: string; via: 'stale'; error: MethodFetchError };

/** The most resolutions kept (one per repository and ref). */
const MAX_RESOLUTIONS = 1024;

/** One remembered resolution: the commit id (an object, so that a resolution served stale can be told apart). */
interface Remembered {
  sha: string;
}

/** Asks the host which commit a ref names (the `context` of a fetch). */
type Resolve = () => Promise<string>;

/**
 * The key of a (repository, ref): the clone URL and the ref `git ls-remote` asks for (a tag named `HEAD` stays apart).
 */
function keyOf(url: string, tag: string | null): string {
  return `${url} ${tag === null ? 'HEAD' : `refs/tags/${tag}`}`;
}

/** Resolved commits by (clone URL, tag or HEAD), with their freshness. One per fetcher (per process). */
export class CommitResolutions {
  /** Why each resolution lately served stale was: the failure of the `git ls-remote` it stood in for. */
  private readonly staleBecause = new WeakMap<Remembered, MethodFetchError>();
  private readonly remembered: LRUCache<string, Remembered, Resolve>;

  /**
   * @param ttls - how long resolutions stay fresh
   * @param now - clock in epoch ms (tests move it instead of sleeping)
   */
  constructor(
    private readonly ttls: ResolutionTtls,
    now: () => number = Date.now,
  ) {
    this.remembered = new LRUCache<string, Remembered, Resolve>({
      max: MAX_RESOLUTIONS,
      ttlResolution: 0,
      perf: { now },
      // a resolution recorded or evicted meanwhile does not cut short the requests waiting for `git ls-remote`
      ignoreFetchAbort: true,
      fetchMethod: async (_key, stale, { options, context }) => {
        try {
          return { sha: await context() };
        } catch (error) {
          // stale-if-error for an unreachable host only: lru-cache then serves the expired resolution and keeps it
          // expired; any other failure forgets it
          if (stale !== undefined && isHostUnavailable(error)) {
            options.allowStaleOnFetchRejection = true;
            this.staleBecause.set(stale, error);
          }
          throw error;
        }
      },
    });
  }

  /**
   * The commit `tag` (or HEAD) of the repository at `url` names.
   * @param url - the normalised clone URL
   * @param tag - the tag, or null for HEAD
   * @param resolve - asks the host (SSRF check, then `git ls-remote`); called only when no fresh resolution exists
   *   and no other request of the same ref is already resolving it
   * @returns the commit and how it was obtained
   * @throws whatever `resolve` throws (a `MethodFetchError`), unless the host could not be reached and an expired
   *   resolution exists
   */
  async commit(url: string, tag: string | null, resolve: Resolve): Promise<CommitResolution> {
    const status: LRUCache.Status<string, Remembered, Resolve> = {};
    const ttl = this.ttlOf(tag);
    const known = await this.remembered.forceFetch(keyOf(url, tag), {
      context: resolve,
      status,
      ttl,
      // lru-cache takes a TTL of 0 for "never expires"; here it means "resolve on every request"
      forceRefresh: ttl === 0,
    });
    if (status.fetch === 'hit') return { sha: known.sha, via: 'cached' };
    const error = this.staleBecause.get(known);
    return error ? { sha: known.sha, via: 'stale', error } : { sha: known.sha, via: 'resolved' };
  }

  /**
   * Remember that `tag` (or HEAD) of the repository at `url` names `sha` as of now: what a clone found when it differs
   * from what `git ls-remote` said a moment before (the tag moved in between).
   * @param url - the normalised clone URL
   * @param tag - the tag, or null for HEAD
   * @param sha - the commit id
   */
  record(url: string, tag: string | null, sha: string): void {
    this.remembered.set(keyOf(url, tag), { sha }, { ttl: this.ttlOf(tag) });
  }

  /**
   * The lifetime of a resolution in lru-cache's terms, ms: lru-cache expires an entry once its age exceeds `ttl`, a
   * resolution expires when its age reaches the TTL (integer ms).
   */
  private ttlOf(tag: string | null): number {
    const seconds = tag === null ? this.ttls.headSeconds : this.ttls.tagSeconds;
    return Math.max(0, seconds * 1000 - 1);
  }
}
