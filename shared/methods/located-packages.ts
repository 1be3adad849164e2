/**
 * The packages this process located lately in the clone cache, kept in memory: a `method_ref` hit then reads nothing
 * from disk (docs/methods.md#fetching-and-the-clone-cache). A clone entry never changes once renamed into place, so
 * what was located
 * in it — sources, library files, the manifests of its siblings, the addresses it reaches outside the clone — is a
 * function of the commit, the address and the purpose (the Python gate) under this process's fixed limits.
 *
 * Bounded by bytes (`METHOD_PACKAGE_MEMORY_KIB`; `0` keeps nothing), least recently used dropped first (lru-cache).
 * Failures are never kept: a package refused by a bound or gate is located again, and refused again, next time.
 */
import { LRUCache } from 'lru-cache';
import type { BundleSource } from '../mthds/index.js';
import type { Manifest } from './manifest.js';
import type { FetchPurpose } from './method-fetcher.js';
import type { FoundPackage } from './package-locator.js';

/** A package located in a clone entry, with its siblings. */
export interface LocatedPackage {
  found: FoundPackage;
  sources: BundleSource[];
  /** Referenced addresses not found in the clone. */
  outside: string[];
  /** The manifests of the siblings loaded. */
  manifests: Manifest[];
  libraryFiles: ReadonlyMap<string, Uint8Array>;
  /** The commit the entry holds. */
  commitSha: string;
}

/** Bookkeeping bytes counted per kept package besides its texts and files. */
const ENTRY_OVERHEAD_BYTES = 1024;

function sizeOf(located: LocatedPackage): number {
  let bytes = ENTRY_OVERHEAD_BYTES;
  for (const source of located.sources) bytes += source.content.length * 2 + (source.source?.length ?? 0) * 2;
  for (const file of located.libraryFiles.values()) bytes += file.byteLength;
  return bytes;
}

/** Located packages by (commit, address, purpose). */
export class LocatedPackages {
  private readonly kept: LRUCache<string, LocatedPackage> | undefined;

  /** @param maxKib - the most this process keeps, in KiB (string texts counted at 2 bytes a character); 0: none */
  constructor(maxKib: number) {
    this.kept =
      maxKib > 0
        ? new LRUCache<string, LocatedPackage>({ maxSize: maxKib * 1024, sizeCalculation: sizeOf })
        : undefined;
  }

  /**
   * The package kept for this key, or the one `locate` finds (then kept when it fits).
   * @param commitSha - the clone entry's commit
   * @param address - the requested package address (as written in the reference)
   * @param purpose - `run` or `tooling` (the Python gate differs)
   * @param locate - reads and locates the package in the entry
   * @throws whatever `locate` throws
   */
  async get(
    commitSha: string,
    address: string,
    purpose: FetchPurpose,
    locate: () => Promise<LocatedPackage>,
  ): Promise<LocatedPackage> {
    const key = `${commitSha}\u0000${address.toLowerCase()}\u0000${purpose}`;
    const kept = this.kept?.get(key);
    if (kept) return kept;
    const located = await locate();
    this.kept?.set(key, located);
    return located;
  }
}
