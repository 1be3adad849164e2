/**
 * Step paths: where a pipe job sits in a run's execution, as a string that is the same on every attempt of the same
 * submission (issue 17: step checkpoints and fan-out key a finished step by it). The run's pipe is `main`; each
 * controller extends its parent's path by one segment naming how it reached the child:
 * - `s<i>`: the step at index `i` of a PipeSequence (an inline batch step's items extend that step's path);
 * - `b<i>`: the item at index `i` of a batch (PipeBatch or `batch_over`), in input order;
 * - `p<i>`: the branch at index `i` of a PipeParallel, in declaration order;
 * - `c:<pipe code>`: the outcome pipe a PipeCondition runs.
 * Example: `main/s2/b11/p0`: branch 0 of the pipe run for item 11 of the batch that is step 2 of the main sequence.
 */

/** The step path of the run's own pipe. */
export const ROOT_STEP_PATH = 'main';

/** How a controller reaches a child job. */
export type StepSegmentKind = 'step' | 'item' | 'branch' | 'outcome';

const SEGMENT_PREFIX: Record<StepSegmentKind, string> = { step: 's', item: 'b', branch: 'p', outcome: 'c:' };

/**
 * The step path of a controller's child.
 * @param parent - the controller job's step path
 * @param kind - how the controller reaches the child
 * @param key - the step, item or branch index (from 0), or the outcome pipe's code
 * @returns e.g. `main/s2` for `childStepPath('main', 'step', 2)`
 */
export function childStepPath(parent: string, kind: StepSegmentKind, key: number | string): string {
  return `${parent}/${SEGMENT_PREFIX[kind]}${key}`;
}
