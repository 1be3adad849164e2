/**
 * Public surface of `shared/methods`: method packages fetched by address (spec §2.2).
 */

export { type CacheEntry, type CacheLimits, CloneCache } from './clone-cache.js';
export {
  type CommitResolution,
  CommitResolutions,
  type ResolutionTtls,
} from './commit-resolutions.js';
export { createMethodFetcher, type MethodFetcherSeams, methodCache, startCacheSweep } from './create-method-fetcher.js';
export type { GitMethodFetcherOptions } from './git-method-fetcher.js';
export { GitHostUnavailable } from './host-unavailable.js';
export {
  type FetchedMethod,
  type FetchPurpose,
  METHOD_PROVENANCE,
  type MethodFetcher,
  type MethodProvenance,
} from './method-fetcher.js';
export { type MethodRef, parseMethodRef } from './method-ref.js';
export { structureClassesIn } from './python-structures.js';
