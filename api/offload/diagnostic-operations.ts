/**
 * The CPU-heavy parts of the diagnostic and tooling routes, as pure functions of structured-clonable inputs: each
 * loads the request's bundles (or reads its one text) and answers the route's 200 body, already serialised. They run
 * in the diagnostics pool's threads (docs/isolation.md "Diagnostics pool"), called by the routes' request handlers
 * (`requests/diagnostic-requests.ts`) and, for a run's bundle check, through `thread-operations.ts`.
 *
 * Every function answers the exact bytes `sendJson` would send, and throws the route's typed errors (a
 * `PipeNotFoundError` 422 for an unknown `pipe_ref`), which cross the thread boundary with their problem document
 * intact.
 *
 * The mock backends of the dry run are imported from their modules, not from the `shared/inference` barrel: the barrel
 * loads every provider SDK, seconds of start-up for each new thread (and a thread stopped at its budget is replaced).
 *
 * @see spec §4.5–4.10; API-CONTRACT.md §3.7–3.13
 */
import { LibraryFiles } from '../../shared/bundles/index.js';
import {
  buildTypeSet,
  type CodegenTarget,
  type CrateInvalidReport,
  crateInvalidReport,
  generateTypes,
  inputsTemplate,
  inputsTemplateToml,
  outputRepresentation,
  runnerScript,
  type SelectedPipe,
  selectPipe,
} from '../../shared/codegen/index.js';
import { reserveHeap } from '../../shared/compute/index.js';
import { createDocumentPrinter } from '../../shared/docgen/index.js';
import { createMockExtractor } from '../../shared/inference/extraction/mock-extractor.js';
import { createMockBackend } from '../../shared/inference/mock-backend.js';
import { mockValuesForSchema } from '../../shared/inference/mock-value.js';
import {
  type BundleSource,
  buildCrate,
  type Library,
  type LoadedBundle,
  loadLibrary,
  type ModelReferenceCatalog,
  type PackageExports,
  type ValidationMode,
} from '../../shared/mthds/index.js';
import {
  checkRunInputs,
  dryRunSweep,
  loadRunLibrary,
  randomIdSource,
  type SweepDeps,
  selectRunPipe,
} from '../../shared/runtime/index.js';
import { type FormatOptions, formatMthds, lintMthds, warmFormatter } from '../../shared/tooling/index.js';
import { validationReport } from '../../shared/wire/index.js';

/** A route's 200 body as UTF-8 JSON bytes (what `sendJson` would send). */
export type EncodedJson = Uint8Array;

/** Input of {@link validateOperation}: the bundles and the report options of `POST /v1/validate` (spec §4.5). */
export interface ValidateInput {
  sources: BundleSource[];
  allowSignatures: boolean;
  views: string[];
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

/** Input of {@link resolveOperation} (spec §4.6). */
export interface ResolveInput extends ClosureInput {
  mode: ValidationMode;
}

/** Input of {@link codegenOperation} (spec §4.7). */
export interface CodegenInput extends ClosureInput {
  kind: 'types';
  target: CodegenTarget;
}

/** Input of {@link buildInputsOperation} (spec §4.8). */
export interface BuildInputsInput extends ClosureInput {
  pipeRef: string | null;
  format: 'json' | 'toml';
  explicit: boolean;
}

/** Input of {@link buildOutputOperation} (spec §4.9). */
export interface BuildOutputInput extends ClosureInput {
  pipeRef: string | null;
  format: 'schema' | 'json' | 'python';
}

/** Input of {@link buildRunnerOperation} (spec §4.10). */
export interface BuildRunnerInput extends ClosureInput {
  pipeRef: string | null;
  allowSignatures: boolean;
}

/** Input of {@link lintOperation} and {@link formatOperation} (API-CONTRACT.md §3.13). */
export interface TextInput {
  content: string;
  options?: FormatOptions | null;
}

/** Input of {@link checkRunOperation}: the bundles of a run, its pipe selector and its inputs (spec §4.3). */
export interface RunCheckInput {
  sources: BundleSource[];
  pipeCode: string | null;
  /** The request's `inputs`, as received. */
  inputs: unknown;
  /** The serving model deck's names (unknown `model` references are errors); unchecked when absent. */
  models?: ModelReferenceCatalog;
  /** The paths of the files sent beside the bundles, or null for bundles sent as text (PipeDocGen `template_file`). */
  bundleFiles?: string[] | null;
  /** A `method_ref` run's fetched `[exports]` (unexported cross-package references are errors); else absent. */
  exports?: PackageExports;
}

const encoder = new TextEncoder();

/**
 * A 200 body as the bytes `sendJson` would send. `JSON.stringify` grows its text in small parts, but encoding it
 * first copies it whole onto the heap (up to 2 bytes a character), the one allocation an answer makes at once: it is
 * reserved first, so an answer the thread's heap cannot hold stops the task with the memory limit (422), never the
 * process (docs/isolation.md).
 * @param body - any JSON value
 * @throws HeapReservationRefused (answered as the pool's memory limit) when the heap cannot hold the encoding
 */
export function encodeJson(body: unknown): EncodedJson {
  const text = JSON.stringify(body);
  reserveHeap(2 * text.length);
  return encoder.encode(text);
}

const encode = encodeJson;

/** The pipe a build route projected: `pipe_ref`, and `requested_pipe_ref` when the request named it. */
interface BuildSelection {
  pipe_ref: string;
  requested_pipe_ref?: string;
}

/** The valid arm of `POST /v1/build/inputs`: the template in `inputs` (`json`) or `inputs_toml` (`toml`). */
export type BuildInputsValidReport = BuildSelection & {
  is_valid: true;
  format: 'json' | 'toml';
  explicit: boolean;
  message: string;
} & ({ inputs: Record<string, unknown> } | { inputs_toml: string });

/** The valid arm of `POST /v1/build/output`: the representation in `output` (`schema`, `json`) or `output_python`. */
export type BuildOutputValidReport = BuildSelection & {
  is_valid: true;
  format: 'schema' | 'json' | 'python';
  message: string;
} & ({ output: Record<string, unknown> } | { output_python: string });

/** The valid arm of `POST /v1/build/runner`: the script and the `python-structures` projection it imports. */
export type BuildRunnerValidReport = BuildSelection & {
  is_valid: true;
  python_code: string;
  structures: {
    directory: string;
    artifacts: { path: string; content: string }[];
    lock: string;
    lock_filename: string;
  };
  message: string;
};

/** The dry-run sweep's backends, built in the thread: mock inference and extraction, random ids, the clock. */
/** The printer of the dry-run sweeps (stateless). */
const DOCUMENT_PRINTER = createDocumentPrinter();

/**
 * The mock backends of a dry-run sweep, with the document printer (its template checkers only run in a dry run) and,
 * for a fetched package, its files.
 */
function sweepDeps(libraryFiles?: ReadonlyMap<string, Uint8Array>): SweepDeps {
  return {
    deps: {
      inference: createMockBackend(),
      extractor: createMockExtractor(),
      printer: DOCUMENT_PRINTER,
      ...(libraryFiles && libraryFiles.size > 0 ? { libraryFiles: new LibraryFiles(libraryFiles) } : {}),
      ids: randomIdSource(),
      now: Date.now,
    },
    dryRun: { mockValues: mockValuesForSchema },
  };
}

function closureLibrary(input: ClosureInput, mode: ValidationMode): Library | CrateInvalidReport {
  const loaded = loadLibrary(input.sources, {
    mode,
    ...(input.models ? { models: input.models } : {}),
    ...(input.exports ? { exports: input.exports } : {}),
  });
  return loaded.ok ? loaded.library : crateInvalidReport(loaded.errors, loaded.message);
}

function selection(selected: SelectedPipe): BuildSelection {
  return selected.requestedPipeRef === undefined
    ? { pipe_ref: selected.pipe.ref }
    : { pipe_ref: selected.pipe.ref, requested_pipe_ref: selected.requestedPipeRef };
}

/**
 * The verdict of `POST /v1/validate`: static validation and the dry-run sweep with mock inference (spec §4.5).
 * @param input - bundles and report options
 * @returns the `ValidReport` or `InvalidReport`, encoded
 */
export async function validateOperation(input: ValidateInput): Promise<EncodedJson> {
  return encode(
    await validationReport(input.sources, sweepDeps(input.libraryFiles), {
      allowSignatures: input.allowSignatures,
      views: input.views,
      mode: input.mode,
      defaultPipe: input.defaultPipe,
      ...(input.bundleFiles === undefined ? {} : { bundleFiles: input.bundleFiles }),
      ...(input.exports ? { exports: input.exports } : {}),
      ...(input.models ? { models: input.models } : {}),
    }),
  );
}

/**
 * The verdict of `POST /v1/resolve`: the crate of a valid library, or its `CrateInvalidReport` (spec §4.6).
 * @param input - closure and validation mode
 */
export function resolveOperation(input: ResolveInput): EncodedJson {
  const library = closureLibrary(input, input.mode);
  if ('is_valid' in library) return encode(library);
  return encode({ is_valid: true, crate: buildCrate(library), message: 'MTHDS library resolved successfully' });
}

/**
 * The answer of `POST /v1/codegen`: the stamped `types` projection for one target (spec §4.7).
 * @param input - closure, kind and target
 */
export function codegenOperation(input: CodegenInput): EncodedJson {
  const library = closureLibrary(input, 'compat');
  if ('is_valid' in library) return encode(library);
  const projection = generateTypes(library, input.target);
  return encode({
    is_valid: true,
    kind: input.kind,
    target: input.target,
    ...projection,
    message: 'Codegen artifacts generated successfully',
  });
}

/**
 * The verdict of `POST /v1/build/inputs`: the inputs template of one pipe (spec §4.8).
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
  const message =
    selected.pipe.inputs.length === 0
      ? 'This pipe declares no inputs — the template is empty.'
      : 'Inputs template generated successfully';
  return {
    is_valid: true,
    ...selection(selected),
    format: input.format,
    explicit: input.explicit,
    ...rendered,
    message,
  };
}

/**
 * The answer of `POST /v1/build/inputs`: {@link buildInputsReport}, encoded.
 * @param input - closure, pipe selector, format and explicitness
 * @throws PipeNotFoundError (422) when `pipeRef` names no pipe, or nothing selects one
 */
export function buildInputsOperation(input: BuildInputsInput): EncodedJson {
  return encode(buildInputsReport(input));
}

/**
 * The verdict of `POST /v1/build/output`: the output representation of one pipe (spec §4.9).
 * @param input - closure, pipe selector and format
 * @throws PipeNotFoundError (422) when `pipeRef` names no pipe, or nothing selects one
 */
export function buildOutputReport(input: BuildOutputInput): BuildOutputValidReport | CrateInvalidReport {
  const library = closureLibrary(input, 'compat');
  if ('is_valid' in library) return library;
  const selected = selectPipe(library, input.pipeRef, input.manifestMainPipe);
  const representation = outputRepresentation(library, buildTypeSet(library), selected.pipe, input.format);
  const rendered = typeof representation === 'string' ? { output_python: representation } : { output: representation };
  return {
    is_valid: true,
    ...selection(selected),
    format: input.format,
    ...rendered,
    message: 'Output representation generated successfully',
  };
}

/**
 * The answer of `POST /v1/build/output`: {@link buildOutputReport}, encoded.
 * @param input - closure, pipe selector and format
 * @throws PipeNotFoundError (422) when `pipeRef` names no pipe, or nothing selects one
 */
export function buildOutputOperation(input: BuildOutputInput): EncodedJson {
  return encode(buildOutputReport(input));
}

/**
 * The verdict of `POST /v1/build/runner`: the dry-run sweep scoped to the pipe, then its runner script and the
 * `python-structures` projection it imports (spec §4.10).
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
  if (swept.errors.length > 0)
    return crateInvalidReport(
      swept.errors,
      `Dry run error(s): ${swept.errors.map((item) => item.message).join(' | ')}`,
    );
  const selected = requested ?? selectPipe(library, null, input.manifestMainPipe);
  const types = buildTypeSet(library);
  const pythonCode = runnerScript(library, types, selected.pipe);
  const { artifacts, lock, lock_filename } = generateTypes(library, 'python-structures', types);
  return {
    is_valid: true,
    ...selection(selected),
    python_code: pythonCode,
    structures: { directory: 'structures', artifacts, lock, lock_filename },
    message: 'Runner code generated successfully',
  };
}

/**
 * The answer of `POST /v1/build/runner`: {@link buildRunnerReport}, encoded.
 * @param input - closure, pipe selector and `allow_signatures`
 * @throws PipeNotFoundError (422) when `pipeRef` names no pipe, or nothing selects one
 */
export async function buildRunnerOperation(input: BuildRunnerInput): Promise<EncodedJson> {
  return encode(await buildRunnerReport(input));
}

/**
 * The answer of `POST /v1/lint`: `{diagnostics}` (API-CONTRACT.md §3.13).
 * @param input - the text
 */
export function lintOperation(input: TextInput): EncodedJson {
  return encode({ diagnostics: lintMthds(input.content) });
}

/**
 * The answer of `POST /v1/format`: `{formatted, changed, diagnostics}` (API-CONTRACT.md §3.13).
 * @param input - the text and its format options
 */
export async function formatOperation(input: TextInput): Promise<EncodedJson> {
  return encode(await formatMthds(input.content, input.options));
}

/**
 * The check of a run before it runs or is queued (spec §4.3–4.4): its bundles load as one valid library and name a
 * pipe to run, and its inputs bind to that pipe as the run will bind them.
 * @param input - the run's bundles, `pipe_code` and inputs
 * @returns the checked library
 * @throws ValidateBundleError (422) with every validation item; PipeNotFoundError (422) when no pipe is selected;
 *   StuffFactoryError, ConceptNotFoundError, ConceptAmbiguityError, PipeInputError (422) for inputs the pipe refuses
 */
function checkedRun(input: RunCheckInput): Library {
  const library = loadRunLibrary(input.sources, input.models, input.bundleFiles, input.exports);
  checkRunInputs(library, selectRunPipe(library, input.pipeCode), input.inputs);
  return library;
}

/**
 * The verdict of a run's check, as {@link checkedRun}.
 * @param input - the run's bundles, `pipe_code` and inputs
 * @throws as {@link checkedRun}
 */
export function checkRunOperation(input: RunCheckInput): void {
  checkedRun(input);
}

/**
 * The verdict of a run's check, as {@link checkedRun}, answering the checked bundles.
 * @param input - the run's bundles, `pipe_code` and inputs
 * @returns the checked bundles (plain data), from which the caller builds the run library (`buildLibrary`) without
 *   parsing the texts or re-running the rules
 * @throws as {@link checkedRun}
 */
export function loadRunOperation(input: RunCheckInput): LoadedBundle[] {
  return [...checkedRun(input).bundles];
}

/**
 * Load what a thread needs before its first request: the `/v1/format` formatter (taplo, seconds to load).
 */
export async function warmOperation(): Promise<void> {
  await warmFormatter();
}
