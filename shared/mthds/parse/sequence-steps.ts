/**
 * The steps of controllers as written: a sub-pipe call (a PipeSequence step or a PipeParallel branch) and a
 * PipeSequence's binding step, with the helpers telling them apart (docs/pipes.md#pipesequence,
 * docs/data-flow.md#binding-steps).
 */
import { z } from 'zod';
import { nullish } from './nullish-field.js';

/** A step of a sequence or a branch of a parallel (docs/pipes.md#pipesequence). */
export const SUB_PIPE = z.strictObject({
  pipe: z.string(),
  result: nullish(z.string()),
  nb_output: nullish(z.number().int()),
  multiple_output: nullish(z.boolean()),
  batch_over: nullish(z.string()),
  batch_as: nullish(z.string()),
});
/** A step or branch. */
export type SubPipeBlueprint = z.infer<typeof SUB_PIPE>;

/**
 * A binding step of a PipeSequence: the value at a dotted path (`root.field…`) copied under `result`, no pipe run
 * (docs/data-flow.md#binding-steps, a newer reference feature; not on the 0.16 wire).
 */
export const BINDING_STEP = z.strictObject({ from: z.string(), result: z.string() });
/** A binding step. */
export type BindingStepBlueprint = z.infer<typeof BINDING_STEP>;
/** A step of a PipeSequence: a sub-pipe call or a binding step. */
export type SequenceStepBlueprint = SubPipeBlueprint | BindingStepBlueprint;

/**
 * Whether a sequence step is a binding step.
 * @param step - a step of a PipeSequence
 */
export function isBindingStep(step: SequenceStepBlueprint): step is BindingStepBlueprint {
  return 'from' in step;
}

/**
 * The steps of a PipeSequence that call a pipe, in order (binding steps left out).
 * @param steps - the `steps` of a PipeSequence
 */
export function pipeSteps(steps: readonly SequenceStepBlueprint[]): SubPipeBlueprint[] {
  return steps.filter((step): step is SubPipeBlueprint => !isBindingStep(step));
}
