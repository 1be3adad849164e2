/**
 * The verdict on a stored method's draft, in a diagnostics thread (docs/api.md#methods-catalog): the verdict of
 * `POST /v1/validate` on the same bundles, with its defaults (`compat` rules, no signatures run, no views), so a
 * method saves exactly when `POST /v1/validate` calls its bundles valid; on a publish, with the fingerprint of the
 * crate `POST /v1/resolve` would answer (docs/crate.md).
 */
import { type BundleSource, buildCrate, type ModelReferenceCatalog } from '../../shared/mthds/index.js';
import { type InvalidReport, type ValidReport, validationReport } from '../../shared/wire/index.js';
import { closureLibrary } from './closure-library.js';
import { sweepDeps } from './dry-run-backends.js';

/** Input of {@link methodVerdictOperation}. */
export interface MethodVerdictInput {
  /** The draft's `.mthds` files. */
  sources: BundleSource[];
  /** The serving model deck's names (unknown `model` references are errors); unchecked when absent. */
  models?: ModelReferenceCatalog;
  /** Also compute the crate's fingerprint of a valid draft (a publish). */
  crate?: boolean;
}

/** The verdict, and the crate fingerprint when asked for and the draft is valid. */
export interface MethodVerdict {
  report: ValidReport | InvalidReport;
  crateFingerprint: string | null;
}

/**
 * The `POST /v1/validate` verdict on a draft.
 * @param input - its bundles, the deck's names, whether to fingerprint its crate
 * @returns the valid or invalid report, as that route answers it, and the crate fingerprint (or null)
 */
export async function methodVerdictOperation(input: MethodVerdictInput): Promise<MethodVerdict> {
  const report = await validationReport(input.sources, sweepDeps(), {
    allowSignatures: false,
    views: [],
    mode: 'compat',
    defaultPipe: null,
    bundleFiles: null,
    ...(input.models ? { models: input.models } : {}),
  });
  if (!input.crate || !report.is_valid) return { report, crateFingerprint: null };
  const library = closureLibrary(
    { sources: input.sources, manifestMainPipe: null, ...(input.models ? { models: input.models } : {}) },
    'compat',
  );
  return { report, crateFingerprint: 'is_valid' in library ? null : buildCrate(library).fingerprint };
}
