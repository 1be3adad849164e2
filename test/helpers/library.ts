/**
 * The one way tests load a library they expect valid.
 */
import { type BundleSource, type Library, type LoadOptions, loadLibrary } from '../../shared/mthds/index.js';

/**
 * Load bundles the test expects to validate.
 * @param sources - the bundle texts with their source names
 * @param options - the load mode (compat by default)
 * @returns the library
 * @throws Error with the load's message when the bundles do not validate
 */
export function validLibrary(sources: readonly BundleSource[], options?: LoadOptions): Library {
  const result = loadLibrary(sources, options);
  if (!result.ok) throw new Error(result.message);
  return result.library;
}

/**
 * {@link validLibrary} of bundle texts, named `b1.mthds`, `b2.mthds`, … in order.
 * @param contents - the bundle texts
 */
export function libraryOf(...contents: string[]): Library {
  return validLibrary(contents.map((content, index) => ({ content, source: `b${index + 1}.mthds` })));
}
