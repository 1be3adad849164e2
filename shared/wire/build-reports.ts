/**
 * The answers of the crate, codegen and build routes (spec §4.6–4.10; docs/codegen.md) as the wire carries them, with
 * their messages: `POST /v1/resolve`, `/v1/codegen`, `/v1/build/inputs`, `/v1/build/output` and `/v1/build/runner`;
 * valid, or the `CrateInvalidReport` they share.
 */
import type { CodegenTarget, SelectedPipe, StampedProjection } from '../codegen/index.js';
import type { ValidationErrorItem } from '../errors/index.js';
import type { Crate } from '../mthds/index.js';

/**
 * The invalid arm of the resolve, codegen and build routes (docs/crate.md, docs/codegen.md#post-v1codegen,
 * docs/codegen.md#post-v1buildinputs, docs/codegen.md#post-v1buildoutput, docs/codegen.md#post-v1buildrunner; spec
 * §4.6–4.10):
 * `CrateInvalidReport` `{is_valid: false, validation_errors, message}`, with no `pending_signatures` and no
 * `is_runnable`.
 */
export interface CrateInvalidReport {
  is_valid: false;
  /** Never empty. */
  validation_errors: ValidationErrorItem[];
  message: string;
}

/** The pipe a build route projected: `pipe_ref`, and `requested_pipe_ref` when the request named it. */
interface BuildSelection {
  pipe_ref: string;
  requested_pipe_ref?: string;
}

/** The valid answer of `POST /v1/resolve`: the library's crate. */
export interface ResolveValidReport {
  is_valid: true;
  crate: Crate;
  message: string;
}

/** The valid answer of `POST /v1/codegen`: the stamped `types` projection for one target. */
export type CodegenValidReport = { is_valid: true; kind: 'types'; target: CodegenTarget } & StampedProjection & {
    message: string;
  };

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

/** The `python-structures` projection a runner script imports, under `structures/`. */
export interface RunnerStructures {
  directory: string;
  artifacts: { path: string; content: string }[];
  lock: string;
  lock_filename: string;
}

/** The valid arm of `POST /v1/build/runner`: the script and the `python-structures` projection it imports. */
export type BuildRunnerValidReport = BuildSelection & {
  is_valid: true;
  python_code: string;
  structures: RunnerStructures;
  message: string;
};

/**
 * The invalid answer of a closure route.
 * @param errors - the validation items (static rules or dry-run failures)
 * @param message - the verdict message
 */
export function crateInvalidReport(errors: ValidationErrorItem[], message: string): CrateInvalidReport {
  return { is_valid: false, validation_errors: errors, message };
}

function selection(selected: SelectedPipe): BuildSelection {
  return selected.requestedPipeRef === undefined
    ? { pipe_ref: selected.pipe.ref }
    : { pipe_ref: selected.pipe.ref, requested_pipe_ref: selected.requestedPipeRef };
}

/**
 * The answer of `POST /v1/resolve` for a valid library.
 * @param crate - the library's crate
 */
export function resolveValidReport(crate: Crate): ResolveValidReport {
  return { is_valid: true, crate, message: 'MTHDS library resolved successfully' };
}

/**
 * The answer of `POST /v1/codegen` for a valid library.
 * @param kind - the projection kind asked for
 * @param target - the projection target
 * @param projection - the stamped artifacts with their lock
 */
export function codegenValidReport(
  kind: 'types',
  target: CodegenTarget,
  projection: StampedProjection,
): CodegenValidReport {
  return { is_valid: true, kind, target, ...projection, message: 'Codegen artifacts generated successfully' };
}

/**
 * The valid answer of `POST /v1/build/inputs`.
 * @param selected - the pipe projected
 * @param format - `json` (the template in `inputs`) or `toml` (its text in `inputs_toml`)
 * @param explicit - whether the template spells every member
 * @param rendered - the template (`json`) or its TOML text (`toml`)
 */
export function buildInputsValidReport(
  selected: SelectedPipe,
  format: 'json' | 'toml',
  explicit: boolean,
  rendered: { inputs: Record<string, unknown> } | { inputs_toml: string },
): BuildInputsValidReport {
  const message =
    selected.pipe.inputs.length === 0
      ? 'This pipe declares no inputs — the template is empty.'
      : 'Inputs template generated successfully';
  return { is_valid: true, ...selection(selected), format, explicit, ...rendered, message };
}

/**
 * The valid answer of `POST /v1/build/output`.
 * @param selected - the pipe projected
 * @param format - the representation asked for
 * @param representation - a JSON representation (`schema`, `json`), or the Python text (`python`)
 */
export function buildOutputValidReport(
  selected: SelectedPipe,
  format: 'schema' | 'json' | 'python',
  representation: Record<string, unknown> | string,
): BuildOutputValidReport {
  const rendered = typeof representation === 'string' ? { output_python: representation } : { output: representation };
  return {
    is_valid: true,
    ...selection(selected),
    format,
    ...rendered,
    message: 'Output representation generated successfully',
  };
}

/**
 * The valid answer of `POST /v1/build/runner`.
 * @param selected - the pipe projected
 * @param pythonCode - the runner script
 * @param structures - the projection it imports
 */
export function buildRunnerValidReport(
  selected: SelectedPipe,
  pythonCode: string,
  structures: RunnerStructures,
): BuildRunnerValidReport {
  return {
    is_valid: true,
    ...selection(selected),
    python_code: pythonCode,
    structures,
    message: 'Runner code generated successfully',
  };
}

/**
 * The invalid answer of a build route whose dry-run sweep failed.
 * @param errors - the sweep's validation items
 */
export function dryRunInvalidReport(errors: ValidationErrorItem[]): CrateInvalidReport {
  return crateInvalidReport(errors, `Dry run error(s): ${errors.map((item) => item.message).join(' | ')}`);
}
