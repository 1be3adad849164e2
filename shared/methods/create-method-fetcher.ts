/**
 * Building the method fetcher and its clone cache from the deployment settings (spec §1.1), and the periodic cache
 * sweep that workers and the API process (direct mode) run.
 */
import type { Settings } from '../config/index.js';
import type { HostResolver } from '../net/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import { CloneCache } from './clone-cache.js';
import { CommitResolutions } from './commit-resolutions.js';
import { type FetchOutcome, GitMethodFetcher } from './git-method-fetcher.js';
import { LocatedPackages } from './located-packages.js';

/**
 * The clone cache the settings describe (`METHOD_CACHE_DIR` and the `MAX_METHOD_CACHE_*` limits).
 * @param settings - the deployment settings
 * @param metrics - counts evictions (`mthds_method_cache_evictions_total`) when given
 */
export function methodCache(settings: Settings, metrics?: Metrics): CloneCache {
  const { dir, maxClones, maxTotalKib, maxAgeHours } = settings.methodCache;
  const cache = new CloneCache(dir, { maxClones, maxTotalKib, maxAgeHours }, settings.methodRef.gitTimeoutMs * 2);
  if (metrics) cache.onEvicted = (shas) => metrics.methodCacheEvictions.inc(shas.length);
  return cache;
}

/** What {@link createMethodFetcher} may be given besides the settings; each has a production default. */
export interface MethodFetcherSeams {
  /** Counts fetches by outcome (`mthds_method_fetches_total`) and evictions; none by default. */
  metrics?: Metrics;
  /** How clone hosts resolve; the system resolver by default (tests map names without DNS). */
  resolver?: HostResolver;
  /** Clock of the resolution cache, in epoch ms; `Date.now` by default (tests move it instead of sleeping). */
  now?: () => number;
}

/**
 * The fetcher of `method_ref` (spec §2.2), the clone cache it fills and its resolution cache
 * (`METHOD_REF_RESOLVE_TTL_SECONDS`, `METHOD_REF_HEAD_RESOLVE_TTL_SECONDS`). Logs a warning when
 * `METHOD_REF_ALLOW_PRIVATE_HOSTS` is on (development and tests only), and each time an expired resolution is served
 * because the git host could not be reached (stale-if-error).
 * @param settings - the deployment settings
 * @param logger - where the warnings go
 * @param seams - metrics, host resolver and clock
 */
export function createMethodFetcher(
  settings: Settings,
  logger: Logger,
  { metrics, resolver, now }: MethodFetcherSeams = {},
): { fetcher: GitMethodFetcher; cache: CloneCache } {
  if (settings.methodRef.allowPrivateHosts) {
    logger.warn(
      'METHOD_REF_ALLOW_PRIVATE_HOSTS=true: method_ref clones may reach private and loopback hosts (development and tests only).',
    );
  }
  const cache = methodCache(settings, metrics);
  const fetcher = new GitMethodFetcher({
    allowedHosts: settings.methodRef.allowedHosts,
    cloneUrlTemplate: settings.methodRef.cloneUrlTemplate,
    allowPrivateHosts: settings.methodRef.allowPrivateHosts,
    gitTimeoutMs: settings.methodRef.gitTimeoutMs,
    maxCloneKib: settings.methodCache.maxTotalKib,
    cache,
    packages: new LocatedPackages(settings.methodCache.packageMemoryKib),
    resolutions: new CommitResolutions(
      { tagSeconds: settings.methodRef.resolveTtlSeconds, headSeconds: settings.methodRef.headResolveTtlSeconds },
      now,
    ),
    logger,
    scanLimits: {
      maxScannedManifests: settings.fetchLimits.maxScannedManifests,
      maxManifestFileKib: settings.fetchLimits.maxManifestFileKib,
    },
    packageLimits: {
      maxPackageFiles: settings.fetchLimits.maxPackageFiles,
      maxPackageTotalKib: settings.fetchLimits.maxPackageTotalKib,
      maxMthdsFileKib: settings.maxMthdsFileKib,
    },
    ...(metrics ? { observe: (outcome: FetchOutcome) => metrics.methodFetches.inc({ outcome }) } : {}),
    ...(resolver ? { lookup: resolver } : {}),
  });
  return { fetcher, cache };
}

/**
 * Sweep the clone cache every `METHOD_CACHE_SWEEP_MINUTES` (age, count and size eviction; stale staging directories).
 * The timer does not keep the process alive.
 * @param cache - the cache
 * @param settings - the deployment settings (the period)
 * @param logger - evictions are logged at info, failures at warn
 * @returns a function that stops the sweep
 */
export function startCacheSweep(cache: CloneCache, settings: Settings, logger: Logger): () => void {
  const timer = setInterval(
    () => {
      cache.sweep().then(
        (evicted) => {
          if (evicted.length > 0) logger.info({ evicted }, `method cache sweep: evicted ${evicted.length} clone(s)`);
        },
        (error: unknown) => logger.warn({ err: error }, 'method cache sweep failed'),
      );
    },
    settings.methodCache.sweepMinutes * 60 * 1000,
  );
  timer.unref();
  return () => clearInterval(timer);
}
