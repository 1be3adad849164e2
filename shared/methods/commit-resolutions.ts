/**
 * The resolution cache of `method_ref` fetches (spec §2.2; docs/methods.md "Resolution cache"): which commit a
 * repository's tag or HEAD named when `git ls-remote` last answered, kept in process memory so that a clone-cache hit
 * needs no network at all.
 *
 * - A resolution is fresh for `METHOD_REF_RESOLVE_TTL_SECONDS` (a tag) or `METHOD_REF_HEAD_RESOLVE_TTL_SECONDS` (HEAD,
 *   which moves with every push); a fresh one is used as is.
 * - An expired one is resolved again; concurrent resolutions of one (repository, ref) share one `git ls-remote`.
 * - Stale-if-error: when that resolution fails because the git host could not be reached ({@link isHostUnavailable}),
 *   the expired resolution stands in (the caller logs a warning); it stays expired, so the next request asks again. Any
 *   other failure (the tag is gone, no HEAD, a refused host) is final and forgets the resolution.
 * - At most {@link MAX_RESOLUTIONS} resolutions are kept, the least recently used dropped first (lru-cache).
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
 * `git ls-remote` just now), or `stale` (an expired resolution standing in for a host that could not be reached; `error`
 * is that failure, for the warning).
 */
export type CommitResolution =
  | { sha: string; via: 'cached' | 'resolved' }
  | { sha: string; via: 'stale'; error: MethodFetchError };

/** The most resolutions kept (one per repository and ref). */
const MAX_RESOLUTIONS = 1024;

/** One remembered resolution: the commit id, and when `git ls-remote` gave it (epoch ms). */
interface Remembered {
  sha: string;
  resolvedAtMs: number;
}

/** The key of a (repository, ref): the clone URL and the ref `git ls-remote` asks for (a tag named `HEAD` stays apart). */
function keyOf(url: string, tag: string | null): string {
  return `${url} ${tag === null ? 'HEAD' : `refs/tags/${tag}`}`;
}

/** Resolved commits by (clone URL, tag or HEAD), with their freshness. One per fetcher (per process). */
export class CommitResolutions {
  private readonly remembered = new LRUCache<string, Remembered>({ max: MAX_RESOLUTIONS });
  private readonly inflight = new Map<string, Promise<string>>();

  /**
   * @param ttls - how long resolutions stay fresh
   * @param now - clock in epoch ms (tests move it instead of sleeping)
   */
  constructor(
    private readonly ttls: ResolutionTtls,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The commit `tag` (or HEAD) of the repository at `url` names.
   * @param url - the normalised clone URL
   * @param tag - the tag, or null for HEAD
   * @param resolve - asks the host (SSRF check, then `git ls-remote`); called only when no fresh resolution exists
   * @returns the commit and how it was obtained
   * @throws whatever `resolve` throws (a `MethodFetchError`), unless the host could not be reached and an expired
   *   resolution exists
   */
  async commit(url: string, tag: string | null, resolve: () => Promise<string>): Promise<CommitResolution> {
    const key = keyOf(url, tag);
    const known = this.remembered.get(key);
    const ttlMs = (tag === null ? this.ttls.headSeconds : this.ttls.tagSeconds) * 1000;
    if (known && this.now() - known.resolvedAtMs < ttlMs) return { sha: known.sha, via: 'cached' };
    try {
      return { sha: await this.single(key, resolve), via: 'resolved' };
    } catch (error) {
      if (known && isHostUnavailable(error)) return { sha: known.sha, via: 'stale', error };
      this.remembered.delete(key);
      throw error;
    }
  }

  /**
   * Remember that `tag` (or HEAD) of the repository at `url` names `sha` as of now: what a clone found when it differs
   * from what `git ls-remote` said a moment before (the tag moved in between).
   * @param url - the normalised clone URL
   * @param tag - the tag, or null for HEAD
   * @param sha - the commit id
   */
  record(url: string, tag: string | null, sha: string): void {
    this.remembered.set(keyOf(url, tag), { sha, resolvedAtMs: this.now() });
  }

  private single(key: string, resolve: () => Promise<string>): Promise<string> {
    const running = this.inflight.get(key);
    if (running) return running;
    const started = resolve()
      .then((sha) => {
        this.remembered.set(key, { sha, resolvedAtMs: this.now() });
        return sha;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, started);
    return started;
  }
}
