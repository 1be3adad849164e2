/**
 * The working-memory names a step adds for the steps after it (docs/data-flow.md#output-naming): its `result`, the
 * branch results of a
 * PipeParallel with `add_each_output`, and the results produced inside a nested PipeSequence (steps share the memory).
 * @see docs/data-flow.md#output-naming, docs/rules.md#v-c1
 */
import type { Pipe } from '../../library/concept.js';
import type { MthdsLibrary } from '../../library/mthds-library.js';
import { isBindingStep } from '../../parse/sequence-steps.js';

/**
 * The names a pipe adds to the working memory it runs in, besides its own output name.
 * @param library - the library
 * @param pipe - the pipe a step calls
 * @param seen - pipes already visited (recursion guard)
 */
export function producedNames(library: MthdsLibrary, pipe: Pipe, seen: Set<string> = new Set()): string[] {
  if (seen.has(pipe.ref)) return [];
  seen.add(pipe.ref);
  const blueprint = pipe.blueprint;
  if (blueprint.type === 'PipeParallel')
    return blueprint.add_each_output === true
      ? blueprint.branches.flatMap((branch) => (branch.result === undefined ? [] : [branch.result]))
      : [];
  if (blueprint.type !== 'PipeSequence') return [];
  return blueprint.steps.flatMap((step) => {
    if (isBindingStep(step)) return [step.result];
    const child = library.findPipe(step.pipe, pipe.domain_code);
    return [...(step.result === undefined ? [] : [step.result]), ...(child ? producedNames(library, child, seen) : [])];
  });
}
