/**
 * The `pipes` member of a crate (docs/crate.md#crate-shape): each pipe's blueprint with its references qualified.
 */
import type { Pipe } from '../library/concept.js';
import type { Library } from '../library/library.js';
import { isBindingStep, type SequenceStepBlueprint } from '../parse/sequence-steps.js';
import { compact } from './compact.js';
import type { CratePipe } from './crate.js';
import { qualifyConceptRef, qualifyPipeRef } from './qualify.js';

function subPipes<T extends SequenceStepBlueprint>(library: Library, steps: T[], domain: string): T[] {
  return steps.map((step) =>
    isBindingStep(step) ? step : { ...step, pipe: qualifyPipeRef(library, step.pipe, domain) },
  );
}

/**
 * The crate entry of one pipe.
 * @param library - the library the pipe belongs to
 * @param pipe - the pipe
 * @returns the blueprint, absent members dropped, references qualified (see {@link CratePipe})
 * @see docs/crate.md#crate-shape
 */
export function cratePipe(library: Library, pipe: Pipe): CratePipe {
  const domain = pipe.domain_code;
  const concept = (ref: string): string => qualifyConceptRef(library, ref, domain);
  const target = (ref: string): string => qualifyPipeRef(library, ref, domain);
  const written = pipe.blueprint;
  const inputs =
    written.inputs === undefined
      ? undefined
      : Object.fromEntries(Object.entries(written.inputs).map(([name, ref]) => [name, concept(ref)]));
  const common = { inputs, output: concept(written.output) };
  switch (written.type) {
    case 'PipeSequence':
      return compact({ ...written, ...common, steps: subPipes(library, written.steps, domain) });
    case 'PipeParallel':
      return compact({
        ...written,
        ...common,
        branches: subPipes(library, written.branches, domain),
        combined_output: written.combined_output === undefined ? undefined : concept(written.combined_output),
      });
    case 'PipeCondition':
      return compact({
        ...written,
        ...common,
        outcomes: Object.fromEntries(Object.entries(written.outcomes).map(([value, ref]) => [value, target(ref)])),
        default_outcome: target(written.default_outcome),
      });
    case 'PipeBatch':
      return compact({ ...written, ...common, branch_pipe_code: target(written.branch_pipe_code) });
    default:
      return compact({ ...written, ...common });
  }
}
