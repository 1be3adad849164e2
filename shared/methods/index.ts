/**
 * Public surface of `shared/methods`: method packages fetched by address (spec §2.2).
 */
export { METHOD_PROVENANCE, type FetchedMethod, type FetchPurpose, type MethodFetcher, type MethodProvenance } from './method-fetcher.js';
export { parseMethodRef, type MethodRef } from './method-ref.js';
export { CloneCache, type CacheEntry, type CacheLimits } from './clone-cache.js';
export { type GitMethodFetcherOptions } from './git-method-fetcher.js';
export { createMethodFetcher, methodCache, startCacheSweep } from './create-method-fetcher.js';
export { structureClassesIn } from './python-structures.js';
