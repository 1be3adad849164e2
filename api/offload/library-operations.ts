/**
 * `POST /v1/resolve` and `POST /v1/codegen` in a diagnostics thread (spec §4.6–4.7): a closure's crate, or its
 * `types` projection for one target.
 */
import { type CodegenTarget, generateTypes } from '../../shared/codegen/index.js';
import { buildCrate, type ValidationMode } from '../../shared/mthds/index.js';
import { codegenValidReport, resolveValidReport } from '../../shared/wire/index.js';
import { type ClosureInput, closureLibrary } from './closure-library.js';
import { type EncodedJson, encodeJson } from './encode-json.js';

/** Input of {@link resolveOperation}. */
export interface ResolveInput extends ClosureInput {
  mode: ValidationMode;
}

/** Input of {@link codegenOperation}. */
export interface CodegenInput extends ClosureInput {
  kind: 'types';
  target: CodegenTarget;
}

/**
 * The verdict of `POST /v1/resolve`: the crate of a valid library, or its `CrateInvalidReport`.
 * @param input - closure and validation mode
 */
export function resolveOperation(input: ResolveInput): EncodedJson {
  const library = closureLibrary(input, input.mode);
  return encodeJson('is_valid' in library ? library : resolveValidReport(buildCrate(library)));
}

/**
 * The answer of `POST /v1/codegen`: the stamped `types` projection for one target, or the `CrateInvalidReport`.
 * @param input - closure, kind and target
 */
export function codegenOperation(input: CodegenInput): EncodedJson {
  const library = closureLibrary(input, 'compat');
  if ('is_valid' in library) return encodeJson(library);
  return encodeJson(codegenValidReport(input.kind, input.target, generateTypes(library, input.target)));
}
