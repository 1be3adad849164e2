/**
 * Public surface of `shared/bundles`: whole-bundle transports of the run routes (`bundle_b64` / `files`) and the
 * library files a run reads documents from (spec §2.3; docs/bundles.md#whole-bundle-transports).
 */
export type { BundleFile, BundleLimits } from './bundle-limits.js';
export { LibraryFiles } from './library-files.js';
export { type BundleTransportRequest, readBundleTransport } from './read-bundle-transport.js';
export type { RunBundle } from './split-bundle.js';
