/**
 * `POST /v1/validate` in a diagnostics thread (spec §4.5): static validation and the dry-run sweep with mock
 * inference, answered as the `ValidReport` or `InvalidReport` of `shared/wire`.
 */
import type { BundleSource, ModelReferenceCatalog, PackageExports, ValidationMode } from '../../shared/mthds/index.js';
import { validationReport } from '../../shared/wire/index.js';
import { sweepDeps } from './dry-run-backends.js';
import { type EncodedJson, encodeJson } from './encode-json.js';

/** Input of {@link validateOperation}: the bundles and the report options of `POST /v1/validate` (spec §4.5). */
export interface ValidateInput {
  sources: BundleSource[];
  allowSignatures: boolean;
  views: string[];
  /** Opt-in presentations: `markdown` adds `rendered_markdown` (docs/api.md#rendered-markdown). */
  render?: string[];
  mode: ValidationMode;
  /** A fetched manifest's `main_pipe`; null for inline bundles. */
  defaultPipe: string | null;
  /** The paths of a fetched package's files beside its `.mthds`; null for bundles sent as text (no directory). */
  bundleFiles?: string[] | null;
  /** The fetched packages' `[exports]` (unexported cross-package references are errors); unchecked when absent. */
  exports?: PackageExports;
  /** A fetched package's files by bundle-relative path: the dry run reads a PipeDocGen `template_file` from them. */
  libraryFiles?: ReadonlyMap<string, Uint8Array>;
  /** The serving model deck's names (unknown `model` references are errors); unchecked when absent. */
  models?: ModelReferenceCatalog;
}

/**
 * The verdict of `POST /v1/validate`.
 * @param input - bundles and report options
 * @returns the `ValidReport` or `InvalidReport`, encoded
 */
export async function validateOperation(input: ValidateInput): Promise<EncodedJson> {
  return encodeJson(
    await validationReport(input.sources, sweepDeps(input.libraryFiles), {
      allowSignatures: input.allowSignatures,
      views: input.views,
      render: input.render ?? [],
      mode: input.mode,
      defaultPipe: input.defaultPipe,
      ...(input.bundleFiles === undefined ? {} : { bundleFiles: input.bundleFiles }),
      ...(input.exports ? { exports: input.exports } : {}),
      ...(input.models ? { models: input.models } : {}),
    }),
  );
}
