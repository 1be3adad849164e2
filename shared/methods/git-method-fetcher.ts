/**
 * The {@link MethodFetcher} of this service: parse the reference, SSRF-check the clone host, resolve the commit with
 * `git ls-remote`, take the clone from the cache (cloning on a miss), locate the package by manifest identity, read it
 * with its bounds and gates, and load the packages it depends on:
 * - cross-package references whose address names a package found in the same clone load that sibling package (its
 * sources are named by their path relative to the requested package, e.g. `../documents/x.mthds`);
 * - the manifest's `[dependencies]` (alias → `{address, version}`, the version naming a tag; a compat extension, the
 *   standard dropped the table) are fetched through the same machinery, and their sources named `<address>/<path>`;
 * - any other address-form reference, to a package outside the clone, is fetched by that address at the default
 *   branch's HEAD through the same machinery (its sources named `<address>/<path>` too).
 * A commit resolved lately ({@link CommitResolutions}: within `METHOD_REF_RESOLVE_TTL_SECONDS` for a tag,
 * `METHOD_REF_HEAD_RESOLVE_TTL_SECONDS` for HEAD) is reused without any network: the SSRF check and `git ls-remote` run
 * only when the commit is resolved again or cloned. When the host cannot be reached, an expired resolution is served
 * with a warning (stale-if-error).
 * Dependencies and outside packages nest at most {@link MAX_DEPENDENCY_DEPTH} levels; a cycle is refused.
 * What was located in a clone entry is kept in memory per (commit, address, purpose) ({@link LocatedPackages}), so a
 * hit reads nothing from disk; bounds and gates are deterministic for a commit, so their verdict is the same.
 *
 * @see spec §2.2; docs/methods.md#fetching-and-the-clone-cache, docs/methods.md#locating-the-package,
 * docs/methods.md#shaping-and-gates; docs/methods.md#grammar
 */
import path from 'node:path';
import { MethodFetchError } from '../errors/index.js';
import type { BundleSource } from '../mthds/index.js';
import type { HostResolver } from '../net/index.js';
import type { Logger } from '../observability/index.js';
import type { CloneCache } from './clone-cache.js';
import { checkCloneHost, cloneUrl, normalisedCloneUrl } from './clone-target.js';
import type { CommitResolutions } from './commit-resolutions.js';
import { referencedPackageAddresses } from './cross-package-refs.js';
import { type GitOptions, resolveCommit, shallowClone } from './git-remote.js';
import type { LocatedPackage, LocatedPackages } from './located-packages.js';
import type { Manifest } from './manifest.js';
import type { FetchedMethod, FetchPurpose, MethodFetcher } from './method-fetcher.js';
import { type MethodRef, parseMethodRef } from './method-ref.js';
import { type PackageLimits, readPackage } from './package-files.js';
import {
  type FoundPackage,
  locatePackage,
  type ManifestScan,
  packagesAt,
  type ScanLimits,
  scanManifests,
} from './package-locator.js';

/** What the fetcher is configured with (spec §1.1 settings). */
export interface GitMethodFetcherOptions {
  /** `METHOD_REF_ALLOWED_HOSTS`, lower case. */
  allowedHosts: readonly string[];
  /** `METHOD_REF_CLONE_URL_TEMPLATE`. */
  cloneUrlTemplate: string;
  /** `METHOD_REF_ALLOW_PRIVATE_HOSTS`. */
  allowPrivateHosts: boolean;
  /** How clone hosts resolve; the system resolver by default (tests map names without DNS). */
  lookup?: HostResolver;
  /** Bound of one git command, in ms. */
  gitTimeoutMs: number;
  /** Largest clone, in KiB (`MAX_METHOD_CACHE_TOTAL_KIB`: a bigger repository could not stay in the cache). */
  maxCloneKib: number;
  cache: CloneCache;
  /** The packages located lately, kept in memory (`METHOD_PACKAGE_MEMORY_KIB`). */
  packages: LocatedPackages;
  /** Which commit each (repository, ref) named lately: a fresh one spares the SSRF check and `git ls-remote`. */
  resolutions: CommitResolutions;
  /** Where the stale-if-error warning goes. */
  logger: Logger;
  scanLimits: ScanLimits;
  packageLimits: PackageLimits;
  /**
   * Told how each package came (from the cache or by a clone; dependencies included), or that a request's fetch failed
   * (metrics).
   */
  observe?: (outcome: FetchOutcome) => void;
}

/** How one package fetch ended. */
export type FetchOutcome = 'cache_hit' | 'cloned' | 'failed';

/** How deep `[dependencies]` and outside packages are followed (a dependency of a dependency is depth 2). */
const MAX_DEPENDENCY_DEPTH = 4;

/** Fetches method packages from git hosts through the clone cache. */
export class GitMethodFetcher implements MethodFetcher {
  constructor(private readonly options: GitMethodFetcherOptions) {}

  /**
   * Fetch and locate the package named by `ref`, with its siblings and dependencies.
   * @param ref - the request's `method_ref`
   * @param purpose - `run` (Python gated) or `tooling`
   * @throws see {@link MethodFetcher.fetch}
   */
  fetch(ref: string, purpose: FetchPurpose): Promise<FetchedMethod> {
    return this.fetchAt(ref, purpose, []).catch((error: unknown) => {
      this.options.observe?.('failed');
      throw error;
    });
  }

  /**
   * Fetch `ref`, then what it depends on.
   * @param chain - full addresses (lower case) of the packages that led here; a package already on it is a cycle
   */
  private async fetchAt(ref: string, purpose: FetchPurpose, chain: readonly string[]): Promise<FetchedMethod> {
    const parsed = parseMethodRef(ref, this.options.allowedHosts);
    const url = normalisedCloneUrl(cloneUrl(parsed, this.options.cloneUrlTemplate));
    let checked: GitOptions | undefined;
    const git = async (): Promise<GitOptions> => {
      checked ??= {
        timeoutMs: this.options.gitTimeoutMs,
        resolve: await checkCloneHost(url, this.options.allowPrivateHosts, this.options.lookup),
        maxCloneBytes: this.options.maxCloneKib * 1024,
      };
      return checked;
    };
    const resolution = await this.options.resolutions.commit(url, parsed.tag, async () =>
      resolveCommit(url, parsed.tag, parsed.raw, await git()),
    );
    if (resolution.via === 'stale') {
      this.options.logger.warn(
        { method_ref: parsed.raw, commit_sha: resolution.sha, err: resolution.error },
        `method_ref: the git host could not be reached; serving the expired resolution ${resolution.sha} (stale-if-error)`,
      );
    }
    const located = await this.options.cache.use(
      resolution.sha,
      async (staging) => shallowClone(url, parsed.tag, staging, parsed.raw, await git()),
      async (entry) => {
        this.options.observe?.(entry.cloned ? 'cloned' : 'cache_hit');
        return this.options.packages.get(entry.sha, parsed.address, purpose, () =>
          this.locate(entry.dir, entry.sha, parsed, purpose),
        );
      },
    );
    if (located.commitSha !== resolution.sha) this.options.resolutions.record(url, parsed.tag, located.commitSha);
    const fullAddress = located.found.manifest.fullAddress.toLowerCase();
    if (chain.includes(fullAddress))
      throw new MethodFetchError(
        `Method packages depend on each other in a cycle: ${[...chain, fullAddress].join(' -> ')}.`,
      );
    if (chain.length >= MAX_DEPENDENCY_DEPTH) {
      throw new MethodFetchError(
        `Dependencies nest deeper than ${MAX_DEPENDENCY_DEPTH} levels: ${[...chain, fullAddress].join(' -> ')}.`,
      );
    }
    const { dependencies } = located.found.manifest;
    const pinned = new Set(dependencies.map((dependency) => dependency.address.toLowerCase()));
    const exports = exportsTable([located.found.manifest, ...located.manifests]);
    const nested = await this.nestedSources(
      [
        ...dependencies.map((dependency) => ({
          ref: `${dependency.address}@${dependency.version}`,
          address: dependency.address,
        })),
        ...located.outside
          .filter((address) => !pinned.has(address.toLowerCase()))
          .map((address) => ({ ref: address, address })),
      ],
      purpose,
      [...chain, fullAddress],
      exports,
    );
    return {
      sources: [...located.sources, ...nested],
      mainPipe: located.found.manifest.mainPipe,
      libraryFiles: located.libraryFiles,
      exports: sortedExports(exports),
      provenance: {
        address: parsed.address,
        tag: parsed.tag,
        commit_sha: located.commitSha,
        package_name: located.found.manifest.name,
        package_version: located.found.manifest.version,
      },
    };
  }

  /** Scan a clone entry's manifests, locate the requested package and read it with its siblings. */
  private async locate(
    dir: string,
    commitSha: string,
    parsed: MethodRef,
    purpose: FetchPurpose,
  ): Promise<LocatedPackage> {
    const scan = await scanManifests(dir, this.options.scanLimits);
    const found = locatePackage(scan, parsed.address);
    const own = await readPackage(found.dir, found.manifest.fullAddress, purpose, this.options.packageLimits);
    const { sources, outside, manifests } = await this.withSiblings(scan, found, own.sources, purpose);
    return { found, sources, outside, manifests, libraryFiles: own.libraryFiles, commitSha };
  }

  /**
   * The package's sources and its siblings' (transitively), the siblings' manifests, and the referenced addresses
   * found outside the clone.
   */
  private async withSiblings(
    scan: ManifestScan,
    found: FoundPackage,
    own: readonly BundleSource[],
    purpose: FetchPurpose,
  ): Promise<{ sources: BundleSource[]; outside: string[]; manifests: Manifest[] }> {
    const loaded = new Set([found.dir]);
    const manifests: Manifest[] = [];
    const outside = new Map<string, string>();
    const sources = [...own];
    let pending = referencedPackageAddresses(sources);
    while (pending.length > 0) {
      const next: BundleSource[] = [];
      for (const address of pending) {
        const matches = packagesAt(scan, address);
        if (matches.length === 0) {
          if (!outside.has(address.toLowerCase())) outside.set(address.toLowerCase(), address);
          continue;
        }
        const sibling = matches.length === 1 ? matches[0]! : locatePackage(scan, address);
        if (loaded.has(sibling.dir)) continue;
        loaded.add(sibling.dir);
        manifests.push(sibling.manifest);
        const prefix = path.posix.relative(found.relativeDir, sibling.relativeDir);
        const read = await readPackage(sibling.dir, sibling.manifest.fullAddress, purpose, this.options.packageLimits);
        next.push(
          ...read.sources.map((source) => ({
            content: source.content,
            source: prefix === '' ? source.source : `${prefix}/${source.source}`,
          })),
        );
      }
      sources.push(...next);
      pending = referencedPackageAddresses(next);
    }
    return { sources, outside: [...outside.values()], manifests };
  }

  /**
   * Fetch the packages this one depends on — `[dependencies]` at their tag, outside packages by address at HEAD — and
   * name their sources `<address>/<path>`; their exports are merged into `exports`.
   */
  private async nestedSources(
    packages: readonly { ref: string; address: string }[],
    purpose: FetchPurpose,
    chain: readonly string[],
    exports: Map<string, Set<string>>,
  ): Promise<BundleSource[]> {
    const sources: BundleSource[] = [];
    for (const { ref, address } of packages) {
      const fetched = await this.fetchAt(ref, purpose, chain);
      for (const [domain, pipes] of Object.entries(fetched.exports)) mergeExports(exports, domain, pipes);
      sources.push(
        ...fetched.sources.map((source) => ({ content: source.content, source: `${address}/${source.source ?? ''}` })),
      );
    }
    return sources;
  }
}

/** Add a domain's exported pipes to a merged table. */
function mergeExports(into: Map<string, Set<string>>, domain: string, pipes: Iterable<string>): void {
  const merged = into.get(domain) ?? new Set<string>();
  for (const pipe of pipes) merged.add(pipe);
  into.set(domain, merged);
}

/** The merged `[exports]` of manifests (a domain listed by several manifests exports what any of them lists). */
function exportsTable(manifests: readonly Manifest[]): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>();
  for (const manifest of manifests)
    for (const [domain, pipes] of manifest.exports ?? []) mergeExports(table, domain, pipes);
  return table;
}

/** A merged table as plain data, pipes sorted. */
function sortedExports(table: ReadonlyMap<string, ReadonlySet<string>>): Record<string, string[]> {
  return Object.fromEntries([...table].map(([domain, pipes]) => [domain, [...pipes].sort()]));
}
