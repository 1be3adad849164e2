/**
 * `POST /v1/pipe-io` in a diagnostics thread (docs/api.md#post-v1pipe-io): the closure loaded and statically validated
 * (no dry run), a pipe selected, and its I/O contracts and forms answered; or the `CrateInvalidReport`.
 */
import { selectEntryPipe } from '../../shared/codegen/index.js';
import type { ValidationMode } from '../../shared/mthds/index.js';
import { type PipeIoFile, pipeIoValidReport } from '../../shared/wire/index.js';
import { type ClosureInput, closureLibrary } from './closure-library.js';
import { type EncodedJson, encodeJson } from './encode-json.js';

/** Input of {@link pipeIoOperation}. */
export interface PipeIoInput extends ClosureInput {
  /** The request's `pipe_ref`, or null. */
  pipeRef: string | null;
  allPipes: boolean;
  /** The closure's files to echo (`include_files`); absent without it. */
  files?: PipeIoFile[];
  mode: ValidationMode;
}

/**
 * The answer of `POST /v1/pipe-io`.
 * @param input - closure, selection and options
 * @returns the valid report, or the `CrateInvalidReport` of an invalid closure (checked before any selection), encoded
 * @throws EntryPipeNotFoundError (422), EntryPipeAmbiguousError (422) when no pipe can be selected
 */
export function pipeIoOperation(input: PipeIoInput): EncodedJson {
  const library = closureLibrary(input, input.mode);
  if ('is_valid' in library) return encodeJson(library);
  const selection = selectEntryPipe(library, {
    pipeRef: input.pipeRef,
    manifestMainPipe: input.manifestMainPipe,
    allPipes: input.allPipes,
  });
  return encodeJson(
    pipeIoValidReport(library, selection, {
      allPipes: input.allPipes,
      ...(input.files ? { files: input.files } : {}),
    }),
  );
}
