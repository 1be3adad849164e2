/**
 * The ceilings of a submitted bundle (`bundle_b64` / `files`) and the shape both transports read into.
 *
 * @see docs/bundles.md#whole-bundle-transports, docs/limits.md (`MAX_BUNDLE_FILES` / `MAX_BUNDLE_TOTAL_KIB`); spec §2.3
 */

/** Ceilings of one submitted bundle. */
export interface BundleLimits {
  /** Most files (directory entries not counted); `MAX_BUNDLE_FILES`, 128 by default. */
  maxFiles: number;
  /** Most decompressed bytes over all files; `MAX_BUNDLE_TOTAL_KIB` × 1024, 8 MiB by default. */
  maxTotalBytes: number;
}

/** One file of a bundle: its normalised bundle-relative POSIX path and its bytes. */
export interface BundleFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * The 413 detail for a bundle over its file-count ceiling (docs/bundles.md#whole-bundle-transports wording).
 * @param limits - the ceilings
 * @param count - files counted so far
 */
export function tooManyFilesDetail(limits: BundleLimits, count: number): string {
  return `Bundle exceeds the ${limits.maxFiles}-file limit (got ${count}).`;
}

/**
 * The 413 detail for a bundle over its decompressed-size ceiling (docs/bundles.md#whole-bundle-transports wording).
 * @param limits - the ceilings
 */
export function tooLargeDetail(limits: BundleLimits): string {
  return `Bundle exceeds the ${ceilingKib(limits)} KiB decompressed-size limit.`;
}

/**
 * The 413 detail for a `bundle_b64` longer than the size ceiling allows, checked before decoding
 * (docs/bundles.md#whole-bundle-transports).
 * @param limits - the ceilings
 */
export function encodedTooLargeDetail(limits: BundleLimits): string {
  return `bundle_b64 exceeds the ${ceilingKib(limits)} KiB compressed-size limit.`;
}

function ceilingKib(limits: BundleLimits): number {
  return Math.floor(limits.maxTotalBytes / 1024);
}
