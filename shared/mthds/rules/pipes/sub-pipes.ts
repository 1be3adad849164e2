/**
 * The sub-pipe lists of controllers: the `steps` of a PipeSequence that call a pipe (binding steps left out) and the
 * `branches` of a PipeParallel.
 * @see docs/pipes.md#pipesequence, docs/pipes.md#pipeparallel
 */

import type { Pipe } from '../../library/concept.js';
import { isBindingStep, type SubPipeBlueprint } from '../../parse/sequence-steps.js';

/** One step or branch, with its path inside the pipe table (`steps[0]`). */
export interface SubPipeAt {
  at: string;
  sub: SubPipeBlueprint;
}

/**
 * The steps or branches of a pipe (empty for other types).
 * @param pipe - any pipe
 */
export function subPipesOf(pipe: Pipe): SubPipeAt[] {
  const blueprint = pipe.blueprint;
  if (blueprint.type === 'PipeSequence')
    return blueprint.steps.flatMap((sub, index) => (isBindingStep(sub) ? [] : [{ at: `steps[${index}]`, sub }]));
  if (blueprint.type === 'PipeParallel')
    return blueprint.branches.map((sub, index) => ({ at: `branches[${index}]`, sub }));
  return [];
}
