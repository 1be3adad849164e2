/**
 * The library of a resolve, codegen or build request: its closure loaded, or the `CrateInvalidReport` of its
 * validation items.
 */
import {
  type BundleSource,
  type Library,
  loadLibrary,
  type ModelReferenceCatalog,
  type PackageExports,
  type ValidationMode,
} from '../../shared/mthds/index.js';
import { type CrateInvalidReport, crateInvalidReport } from '../../shared/wire/index.js';

/**
 * The closure of a resolve, codegen or build request: its bundles, the fetched manifest's `main_pipe` (or null), and
 * the serving model deck's names (unknown `model` references are errors; unchecked when absent).
 */
export interface ClosureInput {
  sources: BundleSource[];
  manifestMainPipe: string | null;
  models?: ModelReferenceCatalog;
  /** A fetched `method_ref`'s `[exports]` (unexported cross-package references are errors); absent for inline files. */
  exports?: PackageExports;
}

/**
 * Load a closure.
 * @param input - the closure
 * @param mode - the static rules' mode
 * @returns the library, or the invalid report of its validation items
 */
export function closureLibrary(input: ClosureInput, mode: ValidationMode): Library | CrateInvalidReport {
  const loaded = loadLibrary(input.sources, {
    mode,
    ...(input.models ? { models: input.models } : {}),
    ...(input.exports ? { exports: input.exports } : {}),
  });
  return loaded.ok ? loaded.library : crateInvalidReport(loaded.errors, loaded.message);
}
