/**
 * Building the method fetcher and its clone cache from the deployment settings (spec §1.1), and the periodic cache
 * sweep that workers and the API process (direct mode) run.
 */
import type { Settings } from '../config/index.js';
import type { HostResolver } from '../net/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import { CloneCache } from './clone-cache.js';
import { type FetchOutcome, GitMethodFetcher } from './git-method-fetcher.js';

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

/**
 * The fetcher of `method_ref` (spec §2.2) and the cache it fills. Logs a warning when
 * `METHOD_REF_ALLOW_PRIVATE_HOSTS` is on (development and tests only).
 * @param settings - the deployment settings
 * @param logger - where the warning goes
 * @param metrics - counts fetches by outcome (`mthds_method_fetches_total`) when given
 * @param resolver - how clone hosts resolve; the system resolver by default (tests map names without DNS)
 */
export function createMethodFetcher(
  settings: Settings,
  logger: Logger,
  metrics?: Metrics,
  resolver?: HostResolver,
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
