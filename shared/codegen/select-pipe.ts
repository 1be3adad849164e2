/**
 * Choosing the pipe of a build route (spec §4.8; docs/codegen.md#post-v1buildinputs): the request's `pipe_ref`, else
 * the fetched
 * manifest's `main_pipe` (a `method_ref` request), else the closure's single declared `main_pipe`. A bare code
 * resolves across domains; the answer echoes the qualified ref.
 */
import { PipeNotFoundError, ValidationError } from '../errors/index.js';
import type { Library, Pipe } from '../mthds/index.js';

/** The chosen pipe, with the selector as submitted (absent when defaulted). */
export interface SelectedPipe {
  pipe: Pipe;
  requestedPipeRef?: string;
}

function resolveOrExplain(library: Library, selector: string, fromManifest: boolean): Pipe {
  try {
    return library.resolvePipe(selector);
  } catch (error) {
    if (!(error instanceof PipeNotFoundError)) throw error;
    const where = fromManifest
      ? "(the fetched package manifest's `main_pipe`) not found in the package's closure"
      : 'not found in the submitted closure';
    throw new ValidationError(`Pipe '${selector}' ${where}: ${error.message}`);
  }
}

/**
 * Select the pipe to project.
 * @param library - the closure's validated library
 * @param pipeRef - the request's `pipe_ref`, when given
 * @param manifestMainPipe - the fetched manifest's `main_pipe` on a `method_ref` request, else null
 * @throws ValidationError (422) when the selector names no pipe, or when nothing supplies a default (no `main_pipe`,
 *   or several)
 */
export function selectPipe(
  library: Library,
  pipeRef: string | null | undefined,
  manifestMainPipe: string | null,
): SelectedPipe {
  if (pipeRef !== null && pipeRef !== undefined)
    return { pipe: resolveOrExplain(library, pipeRef, false), requestedPipeRef: pipeRef };
  if (manifestMainPipe !== null) return { pipe: resolveOrExplain(library, manifestMainPipe, true) };
  const declared = [
    ...new Set(
      library.bundles
        .filter((bundle) => bundle.blueprint.main_pipe !== undefined)
        .map((bundle) => `${bundle.blueprint.domain}.${bundle.blueprint.main_pipe}`),
    ),
  ].sort();
  if (declared.length === 0)
    throw new ValidationError(
      'No `pipe_ref` was given and the closure declares no `main_pipe` — name the pipe to project explicitly.',
    );
  if (declared.length > 1)
    throw new ValidationError(
      `No \`pipe_ref\` was given and the closure declares several \`main_pipe\`s (${declared.join(', ')}) — name the pipe to project explicitly.`,
    );
  return { pipe: resolveOrExplain(library, declared[0]!, false) };
}
