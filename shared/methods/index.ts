/**
 * Public surface of `shared/methods`: method packages fetched by address (spec §2.2).
 */
export type { FetchedMethod, FetchPurpose, MethodFetcher, MethodProvenance } from './method-fetcher.js';
