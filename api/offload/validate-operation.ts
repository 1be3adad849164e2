/**
 * `POST /v1/validate` in a diagnostics thread (spec §4.5): static validation and the dry-run sweep with mock
 * inference, answered as the `ValidReport` or `InvalidReport` of `shared/wire`; and the older `POST /validate`
 * (spec §4.12), the same verdict on one bundle answered in the older body.
 */
import { ValidateBundleError } from '../../shared/errors/index.js';
import type { BundleSource, ModelReferenceCatalog, PackageExports, ValidationMode } from '../../shared/mthds/index.js';
import { libraryVerdict } from '../../shared/runtime/index.js';
import { legacyValidation, validationReport } from '../../shared/wire/index.js';
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

/**
 * The older `POST /validate` (spec §4.12; docs/api.md#older-unversioned-routes): the verdict `/v1/validate` gives one
 * inline bundle with its defaults, answered in the older success body.
 * @param content - the bundle text
 * @param models - the serving model deck's names (unknown `model` references are errors); unchecked when absent
 * @returns the older success body, encoded
 * @throws ValidateBundleError (422, with `validation_errors`) when the bundle fails static validation or its dry run
 */
export async function legacyValidateOperation(content: string, models?: ModelReferenceCatalog): Promise<EncodedJson> {
  const verdict = await libraryVerdict([{ content, source: null }], sweepDeps(), {
    allowSignatures: false,
    ...(models ? { models } : {}),
  });
  if (!verdict.ok) throw new ValidateBundleError(verdict.message, verdict.errors);
  return encodeJson(legacyValidation(verdict, content));
}
