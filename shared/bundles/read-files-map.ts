/**
 * Reading the `files` transport of the run routes: a `{relative_path: text}` map (not the tooling routes' `files[]`).
 * Each text is stored as its UTF-8 bytes.
 *
 * @see docs/bundles.md#whole-bundle-transports; spec §2.3
 */
import { PayloadTooLarge } from '../errors/index.js';
import { type BundleFile, type BundleLimits, tooLargeDetail, tooManyFilesDetail } from './bundle-limits.js';
import { checkEntryName } from './entry-name.js';

/**
 * Read a `files` map.
 * @param files - relative path → text
 * @param limits - file count and total-size ceilings
 * @returns the files in the map's order, with normalised paths
 * @throws PayloadTooLarge (413) over the file count or the total size; InvalidBundle (422) for a refused name
 */
export function readFilesMap(files: Readonly<Record<string, string>>, limits: BundleLimits): BundleFile[] {
  const entries = Object.entries(files);
  if (entries.length > limits.maxFiles) throw new PayloadTooLarge(tooManyFilesDetail(limits, entries.length));
  const paths = entries.map(([name]) => checkEntryName(name));
  const total = entries.reduce((sum, [, text]) => sum + Buffer.byteLength(text, 'utf8'), 0);
  if (total > limits.maxTotalBytes) throw new PayloadTooLarge(tooLargeDetail(limits));
  return entries.map(([, text], index) => ({ path: paths[index]!, bytes: new Uint8Array(Buffer.from(text, 'utf8')) }));
}
