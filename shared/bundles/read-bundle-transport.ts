/**
 * The whole-bundle transports of the run routes: `bundle_b64` (a base64 zip) or `files` (`{relative_path: text}`),
 * mutually exclusive, read in memory under the bundle ceilings and split into sources and library files.
 *
 * @see spec §2.3; docs/bundles.md#whole-bundle-transports, docs/conformance.md#differences-from-the-reference-runner
 * row 11
 */
import { InvalidBundle, PayloadTooLarge } from '../errors/index.js';
import { type BundleLimits, encodedTooLargeDetail } from './bundle-limits.js';
import { readFilesMap } from './read-files-map.js';
import { readZipBundle } from './read-zip.js';
import { type RunBundle, splitBundle } from './split-bundle.js';
import { decodeStrictBase64 } from './strict-base64.js';

/** The transport members of a run request. */
export interface BundleTransportRequest {
  bundle_b64?: string | null | undefined;
  files?: Readonly<Record<string, string>> | null | undefined;
}

/**
 * Read the bundle a run request carries.
 * @param request - its `bundle_b64` / `files` (at least one set)
 * @param limits - file count and decompressed-size ceilings
 * @returns the run's `.mthds` sources and library files
 * @throws InvalidBundle (422) for both transports at once, a corrupt zip or a refused entry; InvalidBase64 (400);
 *   PayloadTooLarge (413) for a `bundle_b64` longer than the size ceiling allows (checked before decoding), too many
 *   files or too many decompressed bytes; CustomCodeRequiresSandbox (403) for custom Python
 */
export async function readBundleTransport(request: BundleTransportRequest, limits: BundleLimits): Promise<RunBundle> {
  if (request.bundle_b64 && request.files)
    throw new InvalidBundle('bundle_b64 and files are mutually exclusive; send the bundle one way.');
  if (request.files) return splitBundle(readFilesMap(request.files, limits));
  const encoded = request.bundle_b64 ?? '';
  if (encoded.length > Math.floor((limits.maxTotalBytes * 4) / 3) + 4)
    throw new PayloadTooLarge(encodedTooLargeDetail(limits));
  return splitBundle(await readZipBundle(decodeStrictBase64(encoded), limits));
}
