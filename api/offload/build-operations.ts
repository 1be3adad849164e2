/**
 * The build routes in a diagnostics thread (spec §4.8–4.10): a pipe's inputs template, its output representation, its
 * runner script. Each `…Report` answers the verdict (the legacy envelope reshapes it, `legacy-build-operations.ts`);
 * each `…Operation` answers it encoded.
 */
import {
  buildTypeSet,
  generateTypes,
  inputsTemplate,
  inputsTemplateToml,
  outputRepresentation,
  runnerScript,
  selectPipe,
} from '../../shared/codegen/index.js';
import { dryRunSweep } from '../../shared/runtime/index.js';
import {
  type BuildInputsValidReport,
  type BuildOutputValidReport,
  type BuildRunnerValidReport,
  buildInputsValidReport,
  buildOutputValidReport,
  buildRunnerValidReport,
  type CrateInvalidReport,
  dryRunInvalidReport,
} from '../../shared/wire/index.js';
import { type ClosureInput, closureLibrary } from './closure-library.js';
import { sweepDeps } from './dry-run-backends.js';
import { type EncodedJson, encodeJson } from './encode-json.js';

/** Input of {@link buildInputsOperation}. */
export interface BuildInputsInput extends ClosureInput {
  pipeRef: string | null;
  format: 'json' | 'toml';
  explicit: boolean;
}

/** Input of {@link buildOutputOperation}. */
export interface BuildOutputInput extends ClosureInput {
  pipeRef: string | null;
  format: 'schema' | 'json' | 'python';
}

/** Input of {@link buildRunnerOperation}. */
export interface BuildRunnerInput extends ClosureInput {
  pipeRef: string | null;
  allowSignatures: boolean;
}

/**
 * The verdict of `POST /v1/build/inputs`: the inputs template of one pipe.
 * @param input - closure, pipe selector, format and explicitness
 * @throws PipeNotFoundError (422) when `pipeRef` names no pipe, or nothing selects one
 */
export function buildInputsReport(input: BuildInputsInput): BuildInputsValidReport | CrateInvalidReport {
  const library = closureLibrary(input, 'compat');
  if ('is_valid' in library) return library;
  const selected = selectPipe(library, input.pipeRef, input.manifestMainPipe);
  const template = inputsTemplate(library, buildTypeSet(library), selected.pipe, input.explicit);
  const rendered =
    input.format === 'json' ? { inputs: template } : { inputs_toml: inputsTemplateToml(selected.pipe, template) };
  return buildInputsValidReport(selected, input.format, input.explicit, rendered);
}

/** {@link buildInputsReport}, encoded. */
export function buildInputsOperation(input: BuildInputsInput): EncodedJson {
  return encodeJson(buildInputsReport(input));
}

/**
 * The verdict of `POST /v1/build/output`: the output representation of one pipe.
 * @param input - closure, pipe selector and format
 * @throws PipeNotFoundError (422) when `pipeRef` names no pipe, or nothing selects one
 */
export function buildOutputReport(input: BuildOutputInput): BuildOutputValidReport | CrateInvalidReport {
  const library = closureLibrary(input, 'compat');
  if ('is_valid' in library) return library;
  const selected = selectPipe(library, input.pipeRef, input.manifestMainPipe);
  const representation = outputRepresentation(library, buildTypeSet(library), selected.pipe, input.format);
  return buildOutputValidReport(selected, input.format, representation);
}

/** {@link buildOutputReport}, encoded. */
export function buildOutputOperation(input: BuildOutputInput): EncodedJson {
  return encodeJson(buildOutputReport(input));
}

/**
 * The verdict of `POST /v1/build/runner`: the dry-run sweep scoped to the pipe, then its runner script and the
 * `python-structures` projection it imports.
 * @param input - closure, pipe selector and `allow_signatures`
 * @throws PipeNotFoundError (422) when `pipeRef` names no pipe, or nothing selects one
 */
export async function buildRunnerReport(input: BuildRunnerInput): Promise<BuildRunnerValidReport | CrateInvalidReport> {
  const library = closureLibrary(input, 'compat');
  if ('is_valid' in library) return library;
  const requested = input.pipeRef === null ? undefined : selectPipe(library, input.pipeRef, null);
  const sweep = sweepDeps();
  const swept = await dryRunSweep(library, sweep.deps, sweep.dryRun, {
    allowSignatures: input.allowSignatures,
    pipeRefs: requested && new Set([requested.pipe.ref]),
  });
  if (swept.errors.length > 0) return dryRunInvalidReport(swept.errors);
  const selected = requested ?? selectPipe(library, null, input.manifestMainPipe);
  const types = buildTypeSet(library);
  const pythonCode = runnerScript(library, types, selected.pipe);
  const { artifacts, lock, lock_filename } = generateTypes(library, 'python-structures', types);
  return buildRunnerValidReport(selected, pythonCode, { directory: 'structures', artifacts, lock, lock_filename });
}

/** {@link buildRunnerReport}, encoded. */
export async function buildRunnerOperation(input: BuildRunnerInput): Promise<EncodedJson> {
  return encodeJson(await buildRunnerReport(input));
}
