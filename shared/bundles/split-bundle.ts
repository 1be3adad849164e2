/**
 * Splitting a submitted bundle's files into what the run uses: `.mthds` files become the run's bundle sources (sorted
 * by path, `source` = the path, so `main_pipe` resolves as for inline `mthds_contents`); other files become its
 * library files. Custom Python is refused (this runner never executes bundle code) and `requirements.txt` is ignored
 * (nothing is ever installed). `METHODS.toml` is not consulted: like the reference, the default pipe is the bundles'
 * own `main_pipe`.
 *
 * @see docs/bundles.md#whole-bundle-transports; spec §2.3
 */
import { posix } from 'node:path';
import { CustomCodeRequiresSandbox, InvalidBundle } from '../errors/index.js';
import type { BundleSource } from '../mthds/index.js';
import type { BundleFile } from './bundle-limits.js';
import { LibraryFiles } from './library-files.js';

/** A bundle as a run uses it. */
export interface RunBundle {
  /** The `.mthds` files, sorted by path, each with `source` = its bundle-relative path. */
  sources: BundleSource[];
  /** Every other file (except `requirements.txt`), readable by path during the run. */
  libraryFiles: LibraryFiles;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function decodeMthds(file: BundleFile): string {
  try {
    return UTF8.decode(file.bytes);
  } catch (error) {
    throw new InvalidBundle(`Bundle file ${JSON.stringify(file.path)} is not valid UTF-8 text.`, { cause: error });
  }
}

/**
 * Split a bundle's files.
 * @param files - the files read from `bundle_b64` or `files`
 * @returns the sources and library files of the run
 * @throws InvalidBundle (422) for no files, a path given twice, a non-UTF-8 `.mthds`, or no `.mthds` at all;
 *   CustomCodeRequiresSandbox (403) when any file ends in `.py`
 */
export function splitBundle(files: readonly BundleFile[]): RunBundle {
  if (files.length === 0) throw new InvalidBundle('Bundle is empty (no files).');
  const seen = new Set<string>();
  for (const { path } of files) {
    if (seen.has(path)) throw new InvalidBundle(`Bundle entry ${JSON.stringify(path)} appears more than once.`);
    seen.add(path);
  }
  if (files.some(({ path }) => path.toLowerCase().endsWith('.py'))) {
    throw new CustomCodeRequiresSandbox(
      'This bundle ships custom Python (.py); running it requires a sandbox-hosted deployment.',
    );
  }
  const sorted = [...files].sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  const mthds = sorted.filter(({ path }) => path.endsWith('.mthds'));
  if (mthds.length === 0) throw new InvalidBundle('Method bundle contains no .mthds file.');
  const library = sorted.filter(({ path }) => !path.endsWith('.mthds') && posix.basename(path) !== 'requirements.txt');
  return {
    sources: mthds.map((file) => ({ content: decodeMthds(file), source: file.path })),
    libraryFiles: new LibraryFiles(new Map(library.map(({ path, bytes }) => [path, bytes]))),
  };
}
