/**
 * Choosing the pipe `POST /v1/pipe-io` describes (docs/api.md#post-v1pipe-io): the request's `pipe_ref`, else the
 * method's own entry pipe — the fetched manifest's `main_pipe`, else the closure's single declared `main_pipe`. Unlike
 * the build routes' {@link selectPipe} (`select-pipe.ts`), a refusal says which way the selection failed
 * (`EntryPipeNotFoundError` or `EntryPipeAmbiguousError`), and a whole-library request (`all_pipes`) never needs an
 * entry pipe.
 */
import { EntryPipeAmbiguousError, EntryPipeNotFoundError, type UserAction } from '../errors/index.js';
import type { Library, Pipe } from '../mthds/index.js';

/** The outcome of {@link selectEntryPipe}. */
export interface EntryPipeSelection {
  /** The pipe selected; null only for a whole-library request whose entry chain finds no single pipe. */
  pipe: Pipe | null;
  /** The method's own entry pipe (manifest `main_pipe`, else the single declared one); null when there is none. */
  entry: Pipe | null;
}

/** Why the entry chain found no pipe, with the error to throw when a pipe was required. */
type Refusal = { refuse: () => Error };

/** The most pipe refs a message lists. */
const LISTED = 20;

function listed(refs: readonly string[]): string {
  const shown = refs.slice(0, LISTED).join(', ');
  return refs.length > LISTED ? `${shown}, … (${refs.length} in all)` : shown;
}

function changeInput(detail: string): { userAction: UserAction } {
  return { userAction: { kind: 'change_input', detail } };
}

const TYPO_FIX = changeInput(
  'Check the pipe code for typos and send the qualified `domain.pipe_code` of a pipe the closure declares.',
);

/** A pipe by ref, or the pipes a bare code matches in several domains. */
function lookup(library: Library, ref: string): Pipe | { candidates: string[] } {
  const found = library.findPipe(ref);
  if (found) return found;
  const bare = !ref.includes('.') && !ref.includes('->');
  const candidates = bare
    ? [...library.pipes.values()].filter((pipe) => pipe.code === ref).map((pipe) => pipe.ref)
    : [];
  return { candidates: candidates.sort() };
}

function allRefs(library: Library): string[] {
  return [...library.pipes.keys()].sort();
}

/** The pipe a `pipe_ref` or a manifest's `main_pipe` names, or the refusal that says why not. */
function named(library: Library, ref: string, fromManifest: boolean): Pipe | Refusal {
  const found = lookup(library, ref);
  if (!('candidates' in found)) return found;
  const what = fromManifest ? `The fetched manifest's main_pipe '${ref}'` : `Pipe '${ref}'`;
  if (found.candidates.length > 1)
    return {
      refuse: () =>
        new EntryPipeAmbiguousError(
          `${what} matches pipes in several domains (${found.candidates.join(', ')}): send the qualified ref of one of them.`,
          changeInput('Send a `pipe_ref` holding the qualified `domain.pipe_code` of the pipe to select.'),
        ),
    };
  return {
    refuse: () =>
      new EntryPipeNotFoundError(
        `${what} was not found in the ${fromManifest ? "method's" : 'submitted'} closure (its pipes: ${listed(allRefs(library))}).`,
        TYPO_FIX,
      ),
  };
}

/** The method's own entry pipe: the manifest's `main_pipe`, else the closure's single declared `main_pipe`. */
function entryChain(library: Library, manifestMainPipe: string | null): Pipe | Refusal {
  if (manifestMainPipe !== null) return named(library, manifestMainPipe, true);
  const declared = [
    ...new Set(
      library.bundles
        .filter((bundle) => bundle.blueprint.main_pipe !== undefined)
        .map((bundle) => `${bundle.blueprint.domain}.${bundle.blueprint.main_pipe}`),
    ),
  ].sort();
  if (declared.length === 1) return named(library, declared[0]!, false);
  if (declared.length === 0)
    return {
      refuse: () =>
        new EntryPipeNotFoundError(
          `No pipe_ref was given and the closure declares no \`main_pipe\` (its pipes: ${listed(allRefs(library))}).`,
          changeInput('Send a `pipe_ref` naming the pipe to select, or `all_pipes: true` to describe every pipe.'),
        ),
    };
  return {
    refuse: () =>
      new EntryPipeAmbiguousError(
        `No pipe_ref was given and the closure declares several \`main_pipe\`s (${declared.join(', ')}).`,
        changeInput(
          'Send a `pipe_ref` naming one of the declared `main_pipe`s, or `all_pipes: true` to describe every pipe.',
        ),
      ),
  };
}

/**
 * Select the pipe to describe.
 * @param library - the closure's validated library
 * @param options - `pipeRef`: the request's `pipe_ref` (qualified, or a bare code that one domain declares);
 *   `manifestMainPipe`: a fetched manifest's `main_pipe`, else null; `allPipes`: a whole-library request, which needs no
 *   entry pipe (a `pipe_ref` it names must still select one)
 * @returns the selected pipe and the method's own entry pipe
 * @throws EntryPipeNotFoundError (422) when `pipeRef` names no pipe, or without `pipeRef` (and without `allPipes`) when
 *   the manifest's `main_pipe` is not in the closure or the closure declares none
 * @throws EntryPipeAmbiguousError (422) when `pipeRef` (or the manifest's `main_pipe`) is a bare code of several
 *   domains, or without `pipeRef` (and without `allPipes`) when the closure declares several `main_pipe`s
 */
export function selectEntryPipe(
  library: Library,
  options: { pipeRef: string | null; manifestMainPipe: string | null; allPipes: boolean },
): EntryPipeSelection {
  const chain = entryChain(library, options.manifestMainPipe);
  const entry = 'refuse' in chain ? null : chain;
  if (options.pipeRef !== null) {
    const pipe = named(library, options.pipeRef, false);
    if ('refuse' in pipe) throw pipe.refuse();
    return { pipe, entry };
  }
  if (entry === null && !options.allPipes) throw (chain as Refusal).refuse();
  return { pipe: entry, entry };
}
