/**
 * The build routes' answers to the legacy envelope `{mthds_contents, pipe_code}` (`requests/legacy-build-envelope.ts`),
 * in the shapes the official JS SDK 0.10 reads (docs/codegen.md#legacy-envelope-mthds_contents-pipe_code): the spec's
 * verdict of the same closure and pipe,
 * reshaped. Like the reference's legacy routes, an invalid closure is a 422 `ValidateBundleError` problem (with its
 * `validation_errors`) rather than a 200 invalid verdict, which the SDK would take for the answer.
 *
 * @see spec §4.8–4.10; docs/codegen.md#legacy-envelope-mthds_contents-pipe_code
 */
import { ValidateBundleError } from '../../shared/errors/index.js';
import type { BundleSource } from '../../shared/mthds/index.js';
import type { CrateInvalidReport } from '../../shared/wire/index.js';
import { buildInputsReport, buildOutputReport, buildRunnerReport } from './build-operations.js';
import { type EncodedJson, encodeJson } from './encode-json.js';

/** A legacy build request: the bundles and the pipe code. */
export interface LegacyBuildInput {
  sources: BundleSource[];
  /** A pipe code, bare or qualified; a bare code resolves across the domains of the closure. */
  pipeCode: string;
}

function valid<T extends { is_valid: true }>(report: T | CrateInvalidReport): T {
  if (!report.is_valid) throw new ValidateBundleError(report.message, report.validation_errors);
  return report;
}

/**
 * `POST /v1/build/inputs` on the legacy envelope: the pipe's inputs template itself (light form, as `format: "json"`
 * gives it in `inputs`).
 * @param input - bundles and pipe code
 * @throws ValidateBundleError (422) for an invalid closure; ValidationError (422) when the pipe code names no pipe
 */
export function legacyBuildInputsOperation(input: LegacyBuildInput): EncodedJson {
  const report = valid(
    buildInputsReport({
      sources: input.sources,
      manifestMainPipe: null,
      pipeRef: input.pipeCode,
      format: 'json',
      explicit: false,
    }),
  );
  return encodeJson('inputs' in report ? report.inputs : {});
}

/**
 * `POST /v1/build/output` on the legacy envelope: the representation itself, the object of `schema` and `json`, or
 * the Python source of `python` as a JSON string.
 * @param input - bundles, pipe code and format
 * @throws ValidateBundleError (422) for an invalid closure; ValidationError (422) when the pipe code names no pipe or
 *   its output has no determinable shape
 */
export function legacyBuildOutputOperation(
  input: LegacyBuildInput & { format: 'schema' | 'json' | 'python' },
): EncodedJson {
  const report = valid(
    buildOutputReport({
      sources: input.sources,
      manifestMainPipe: null,
      pipeRef: input.pipeCode,
      format: input.format,
    }),
  );
  return encodeJson('output' in report ? report.output : report.output_python);
}

/**
 * `POST /v1/build/runner` on the legacy envelope: `{python_code, pipe_code, success, message}` (the SDK's
 * `BuildRunnerResponse`; `pipe_code` echoes the request), plus the `structures` the script imports.
 * @param input - bundles and pipe code
 * @throws ValidateBundleError (422) for an invalid closure or a failed dry run of the pipe; ValidationError (422) when
 *   the pipe code names no pipe, or the pipe calls a package absent from the request
 */
export async function legacyBuildRunnerOperation(input: LegacyBuildInput): Promise<EncodedJson> {
  const report = valid(
    await buildRunnerReport({
      sources: input.sources,
      manifestMainPipe: null,
      pipeRef: input.pipeCode,
      allowSignatures: false,
    }),
  );
  return encodeJson({
    python_code: report.python_code,
    pipe_code: input.pipeCode,
    success: true,
    message: report.message,
    structures: report.structures,
  });
}
