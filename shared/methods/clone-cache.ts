/**
 * The clone cache of `method_ref` fetches (spec §1.1; docs/methods.md#fetching-and-the-clone-cache): one directory per
 * resolved commit id,
 * `<root>/<sha>`, shared by every API and worker process of one host.
 *
 * Safety across processes: a clone is made in `<root>/.staging/<uuid>` and renamed into place atomically, so no
 * process ever sees a torn entry; a per-commit lock file (proper-lockfile) makes concurrent processes wait for the one
 * clone instead of cloning again; eviction runs under one cache-wide lock. Within a process, concurrent requests for
 * one commit share one in-flight promise (single flight). A hit touches the entry's mtime (LRU).
 *
 * Eviction, on insert and by the periodic sweep: entries idle longer than the age limit go first (the newest entry is
 * always kept), then the oldest while the count or total size is over its limit (at least one entry is kept). An
 * entry this process is reading is never evicted by it; evicted entries are renamed into `<root>/.trash` before they
 * are deleted, so they vanish at once.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { directorySize } from './directory-size.js';

/** The eviction limits (`MAX_METHOD_CACHE_CLONES`, `MAX_METHOD_CACHE_TOTAL_KIB`, `MAX_METHOD_CACHE_AGE_HOURS`). */
export interface CacheLimits {
  maxClones: number;
  maxTotalKib: number;
  maxAgeHours: number;
}

/** What {@link CloneCache.entry} hands back. */
export interface CacheEntry {
  /** The entry directory (the clone without `.git`). */
  dir: string;
  /** The commit id it holds. */
  sha: string;
  /** True when this call cloned it (false on a hit, or when another caller cloned it). */
  cloned: boolean;
}

const ENTRY_NAME = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const STALE_STAGING_MS = 60 * 60 * 1000;

async function exists(target: string): Promise<boolean> {
  try {
    await stat(target);
    return true;
  } catch {
    return false;
  }
}

/** The clone cache of one root directory. */
export class CloneCache {
  private readonly inflight = new Map<string, Promise<CacheEntry>>();
  private readonly pinned = new Map<string, number>();
  /** Bytes of each entry, measured once: an entry never changes after its rename into place. */
  private readonly sizes = new Map<string, number>();

  /** Told the commit ids of each eviction, on insert and by the sweep (metrics). */
  onEvicted: ((shas: readonly string[]) => void) | undefined;

  /**
   * @param root - `METHOD_CACHE_DIR`
   * @param limits - eviction limits
   * @param lockWaitMs - how long to wait for another process's clone of the same commit, in ms
   * @param now - clock in epoch ms
   */
  constructor(
    readonly root: string,
    private readonly limits: CacheLimits,
    private readonly lockWaitMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The entry of a commit, cloning it on a miss, then `read` it while it is pinned against this process's evictions.
   * @param sha - the commit id resolved by `ls-remote`
   * @param produce - clones into the given (not yet existing) staging directory and returns the commit actually cloned
   * @param read - what to do with the entry
   * @throws whatever `produce` or `read` throws
   */
  async use<T>(
    sha: string,
    produce: (staging: string) => Promise<string>,
    read: (entry: CacheEntry) => Promise<T>,
  ): Promise<T> {
    const entry = await this.entry(sha, produce);
    this.pinned.set(entry.sha, (this.pinned.get(entry.sha) ?? 0) + 1);
    try {
      return await read(entry);
    } finally {
      const left = (this.pinned.get(entry.sha) ?? 1) - 1;
      if (left === 0) this.pinned.delete(entry.sha);
      else this.pinned.set(entry.sha, left);
    }
  }

  private entry(sha: string, produce: (staging: string) => Promise<string>): Promise<CacheEntry> {
    const running = this.inflight.get(sha);
    if (running) return running.then((entry) => ({ ...entry, cloned: false }));
    const started = this.fill(sha, produce).finally(() => this.inflight.delete(sha));
    this.inflight.set(sha, started);
    return started;
  }

  private async touch(dir: string): Promise<void> {
    const time = new Date(this.now());
    await utimes(dir, time, time);
  }

  private async fill(sha: string, produce: (staging: string) => Promise<string>): Promise<CacheEntry> {
    const dir = path.join(this.root, sha);
    if (await exists(dir)) {
      await this.touch(dir);
      return { dir, sha, cloned: false };
    }
    await mkdir(path.join(this.root, '.locks'), { recursive: true });
    const release = await lockfile.lock(dir, {
      realpath: false,
      lockfilePath: path.join(this.root, '.locks', `${sha}.lock`),
      stale: 30000,
      retries: { retries: Math.ceil(this.lockWaitMs / 200), factor: 1, minTimeout: 200, maxTimeout: 200 },
    });
    try {
      if (await exists(dir)) {
        await this.touch(dir);
        return { dir, sha, cloned: false };
      }
      await mkdir(path.join(this.root, '.staging'), { recursive: true });
      const staging = path.join(this.root, '.staging', randomUUID());
      let actual: string;
      try {
        actual = await produce(staging);
      } catch (error) {
        await rm(staging, { recursive: true, force: true });
        throw error;
      }
      const target = path.join(this.root, actual);
      try {
        await rename(staging, target);
      } catch (error) {
        await rm(staging, { recursive: true, force: true });
        if (!(await exists(target))) throw error;
      }
      await this.touch(target);
      await this.evict(actual);
      return { dir: target, sha: actual, cloned: true };
    } finally {
      await release();
    }
  }

  /**
   * Evict by age, count and size (see the module comment), under the cache-wide lock. Also removes staging
   * directories left by crashed processes.
   * @param keep - a commit that must stay (the one just inserted)
   * @returns the evicted commit ids
   */
  private async evict(keep?: string): Promise<string[]> {
    await mkdir(this.root, { recursive: true });
    const release = await lockfile.lock(this.root, {
      realpath: false,
      lockfilePath: path.join(this.root, '.cache.lock'),
      stale: 30000,
      retries: { retries: 100, factor: 1, minTimeout: 100, maxTimeout: 100 },
    });
    try {
      await this.clearStaging();
      const entries = await this.list();
      const evicted: string[] = [];
      const newest = entries.at(-1)?.sha;
      const protectedShas = new Set([...this.pinned.keys(), ...(keep ? [keep] : []), ...(newest ? [newest] : [])]);
      const maxAgeMs = this.limits.maxAgeHours * 3600 * 1000;
      let remaining = entries.filter((entry) => {
        if (protectedShas.has(entry.sha) || this.now() - entry.mtimeMs <= maxAgeMs) return true;
        evicted.push(entry.sha);
        return false;
      });
      let bytes = remaining.reduce((sum, entry) => sum + entry.bytes, 0);
      for (const entry of [...remaining]) {
        if (remaining.length <= 1) break;
        if (remaining.length <= this.limits.maxClones && bytes <= this.limits.maxTotalKib * 1024) break;
        if (protectedShas.has(entry.sha)) continue;
        remaining = remaining.filter((other) => other !== entry);
        bytes -= entry.bytes;
        evicted.push(entry.sha);
      }
      await mkdir(path.join(this.root, '.trash'), { recursive: true });
      for (const sha of evicted) {
        const trashed = path.join(this.root, '.trash', `${sha}-${randomUUID()}`);
        await rename(path.join(this.root, sha), trashed);
        await rm(trashed, { recursive: true, force: true });
      }
      for (const sha of evicted) this.sizes.delete(sha);
      if (evicted.length > 0) this.onEvicted?.(evicted);
      return evicted;
    } finally {
      await release();
    }
  }

  /** The periodic sweep (workers, and the API process in direct mode): {@link CloneCache.evict} with nothing kept. */
  sweep(): Promise<string[]> {
    return this.evict();
  }

  private async list(): Promise<{ sha: string; mtimeMs: number; bytes: number }[]> {
    const names = (await readdir(this.root)).filter((name) => ENTRY_NAME.test(name));
    const entries = await Promise.all(
      names.map(async (sha) => {
        const dir = path.join(this.root, sha);
        const bytes = this.sizes.get(sha) ?? (await directorySize(dir));
        this.sizes.set(sha, bytes);
        return { sha, mtimeMs: (await stat(dir)).mtimeMs, bytes };
      }),
    );
    return entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
  }

  private async clearStaging(): Promise<void> {
    for (const folder of ['.staging', '.trash']) {
      const base = path.join(this.root, folder);
      if (!(await exists(base))) continue;
      for (const name of await readdir(base)) {
        const target = path.join(base, name);
        const info = await stat(target).catch(() => undefined);
        if (info && (folder === '.trash' || this.now() - info.mtimeMs > STALE_STAGING_MS))
          await rm(target, { recursive: true, force: true });
      }
    }
  }
}
