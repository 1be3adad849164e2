/**
 * The valid answer of `POST /v1/pipe-io` (docs/api.md#post-v1pipe-io): the I/O contracts, input forms and output forms
 * of the selected pipe (or of every pipe), each map built as `/v1/validate`'s valid report builds its own
 * (`validation-report.ts`, `form-descriptors.ts`), so an entry equals the same-named entry of that report. The invalid
 * answer is the `CrateInvalidReport` of `build-reports.ts`.
 */
import type { EntryPipeSelection } from '../codegen/index.js';
import type { Library, Pipe } from '../mthds/index.js';
import {
  inputForms,
  outputForms,
  type PipeInputFormDescriptor,
  type PipeOutputFormDescriptor,
} from './form-descriptors.js';
import { type PipeIOContract, pipeIOContracts } from './validation-report.js';

/** One `.mthds` file echoed by `include_files`, in the request's `files[]` shape (`source` absent when not known). */
export interface PipeIoFile {
  content: string;
  source?: string | null;
}

/** The valid arm of `POST /v1/pipe-io`; the three maps share one key set. */
export interface PipeIoValidReport {
  is_valid: true;
  /** The qualified ref selected; null only for `all_pipes` without a `pipe_ref` and without one entry pipe. */
  pipe_ref: string | null;
  pipe_io_contracts: Record<string, PipeIOContract>;
  input_form: Record<string, PipeInputFormDescriptor>;
  output_form: Record<string, PipeOutputFormDescriptor>;
  /** The method's own entry pipe (the manifest's `main_pipe`, else the single declared one), or null. */
  default_pipe_ref: string | null;
  /** Contract-only pipes (`PipeSignature`) of the library, by ref, sorted, as `/v1/validate` lists them. */
  pending_signatures: string[];
  is_runnable: boolean;
  /** With `include_files` only. */
  files?: PipeIoFile[];
}

/**
 * The answer of `POST /v1/pipe-io` for a valid library.
 * @param library - the closure's library
 * @param selection - the selected pipe and the method's entry pipe (`selectEntryPipe`)
 * @param options - `allPipes`: describe every pipe (sorted by ref) rather than the selected one; `files`: the closure's
 *   files to echo (`include_files`), absent otherwise
 */
export function pipeIoValidReport(
  library: Library,
  selection: EntryPipeSelection,
  options: { allPipes: boolean; files?: PipeIoFile[] },
): PipeIoValidReport {
  const pipes: Pipe[] = options.allPipes
    ? [...library.pipes.values()].sort((a, b) => a.ref.localeCompare(b.ref))
    : selection.pipe
      ? [selection.pipe]
      : [];
  const pending = [...library.pipes.values()]
    .filter((pipe) => pipe.type === 'PipeSignature')
    .map((pipe) => pipe.ref)
    .sort();
  const report: PipeIoValidReport = {
    is_valid: true,
    pipe_ref: selection.pipe?.ref ?? null,
    pipe_io_contracts: pipeIOContracts(library, pipes),
    input_form: inputForms(library, pipes),
    output_form: outputForms(library, pipes),
    default_pipe_ref: selection.entry?.ref ?? null,
    pending_signatures: pending,
    is_runnable: pending.length === 0,
  };
  if (options.files) report.files = options.files;
  return report;
}
