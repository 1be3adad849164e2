/**
 * The libraries of recent runs, by the SHA-256 of their bundle sources: a method run again and again with new inputs
 * (the common case) is parsed and validated once per process, not once per run, and a run's source list is hashed
 * once. A library is immutable once built, so runs share it. Invalid sources are never kept: they fail again, with the
 * same items, on every run.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { BundleSource, Library } from '../mthds/index.js';

/** Characters of bundle text whose libraries are kept (2 Mi; a library takes some tens of times its text in memory). */
const RUN_LIBRARIES_MAX_CHARS = 2 * 1024 * 1024;
/** Libraries kept at most, however small. */
const RUN_LIBRARIES_MAX_ENTRIES = 256;
/** Characters an entry counts beyond its text, so that very small bundles are bounded too. */
const ENTRY_OVERHEAD_CHARS = 1024;

interface Entry {
  library: Library;
  chars: number;
}

const libraries = new LRUCache<string, Entry>({
  max: RUN_LIBRARIES_MAX_ENTRIES,
  maxSize: RUN_LIBRARIES_MAX_CHARS,
  sizeCalculation: (entry) => entry.chars + ENTRY_OVERHEAD_CHARS,
});

/**
 * The library last found for a source list, by the list object: a run asks for its library more than once (to run, then
 * to describe its inputs and outputs), and the list, which never changes once made, is hashed once.
 */
const bySourceList = new WeakMap<readonly BundleSource[], { variant: string; library: Library }>();

/** The SHA-256 of sources in order, each source name and content length-prefixed, then the variant (hex). */
function sourcesDigest(sources: readonly BundleSource[], variant: string): string {
  const hash = createHash('sha256');
  hash.update(`${variant.length}:${variant}`);
  for (const { source, content } of sources) {
    const name = source ?? '';
    hash.update(`${name.length}:${name}${content.length}:`);
    hash.update(content);
  }
  return hash.digest('hex');
}

/**
 * The library of these sources: the kept one, or the one `load` builds (kept for the next run).
 * @param sources - the run's bundle sources, in order
 * @param load - loads and validates the sources
 * @param variant - what else the verdict depends on (the bundle's files, for PipeDocGen `template_file`); part of the
 * key
 * @throws whatever `load` throws (nothing is kept then)
 */
export function cachedRunLibrary(sources: readonly BundleSource[], load: () => Library, variant = ''): Library {
  const found = bySourceList.get(sources);
  if (found?.variant === variant) return found.library;
  const library = keptLibrary(sources, load, variant);
  bySourceList.set(sources, { variant, library });
  return library;
}

/** The kept library of these sources (by their digest), or the one `load` builds, kept unless the text is too large. */
function keptLibrary(sources: readonly BundleSource[], load: () => Library, variant: string): Library {
  let chars = 0;
  for (const { content } of sources) chars += content.length;
  if (chars > RUN_LIBRARIES_MAX_CHARS) return load();
  const key = sourcesDigest(sources, variant);
  const kept = libraries.get(key);
  if (kept) return kept.library;
  const library = load();
  libraries.set(key, { library, chars });
  return library;
}
