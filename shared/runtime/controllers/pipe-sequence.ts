/**
 * PipeSequence: run the steps in order on one shared working memory; each step's output is stored under its
 * `result` and becomes the main stuff; the sequence's output is the last step's (docs/runtime.md#pipesequence,
 * docs/runtime.md#controllers).
 *
 * Decision (docs/runtime.md#pipesequence): after a step, when its `result` is set but the main stuff is stored under
 * another
 * name (a controller child ignores its output name), the main stuff is also published under `result`. The same holds
 * for the sequence's own output name. This is a superset of the reference behaviour. A binding step stores a copy of
 * the value at its path under `result` as the new main stuff; a dotted `batch_over` is bound under a private name
 * first (docs/data-flow.md#binding-steps; binding-step.ts); when that path reaches no value (its root is recorded
 * absent, or a
 * single value is not there) the batch step is lifted (a skipped graph node) and its result is the empty list
 * (docs/language.md#optionality-presence-markers-and-absences). A step whose output resolves absent (lifted, or a
 * PipeCondition taking
 * `continue`) records the absence under its `result`, and a later step reading it is lifted, runs with it undefined, or
 * fails, by its input's presence marker; the sequence's output is absent when its last step's is
 * (docs/language.md#optionality-presence-markers-and-absences).
 */

import {
  isBindingStep,
  type Pipe,
  type PipeSequenceBlueprint,
  pathRoot,
  type SubPipeBlueprint,
} from '../../mthds/index.js';
import { asGraphNode } from '../graph-node.js';
import type { NodeStuff } from '../graph-recorder.js';
import type { GraphPipe } from '../graph-registries.js';
import { stepMultiplicityOverride } from '../multiplicity.js';
import type { PipeJob, PipeRunner, RunEnvironment } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
import { childStepPath } from '../step-path.js';
import type { Stuff } from '../stuff.js';
import type { WorkingMemory } from '../working-memory.js';
import { boundStuff } from './binding-step.js';
import { runBatch } from './run-batch.js';

/**
 * Make sure the main stuff is stored under `name`.
 * @param memory - the working memory
 * @param name - the wanted output name, or null for none
 */
function publishMainStuffAs(memory: WorkingMemory, name: string | null): void {
  const absence = memory.mainAbsence();
  if (absence) {
    if (name !== null && absence.variableName !== name) memory.setAbsentMainStuff({ ...absence, variableName: name });
    return;
  }
  const main = memory.mainStuff();
  if (name === null || !main || memory.mainStuffName() === name) return;
  memory.setNewMainStuff(main, name);
}

/**
 * Bind a dotted `batch_over` path under a private name (`_bound_<path with _>`, numbered on a clash).
 * @returns the private name, or undefined when the path reaches no value: its root is recorded absent, or it ends on a
 *   single value that is not there (docs/data-flow.md#binding-steps,
 * docs/language.md#optionality-presence-markers-and-absences: the private binding is then absent and the batch lifted)
 * @throws PipeInputError when the root is missing without an absence record, or the path does not resolve
 */
function bindPrivately(job: PipeJob, environment: RunEnvironment, path: string): string | undefined {
  const root = pathRoot(path);
  if (!job.memory.has(root) && job.memory.absence(root) !== undefined) return undefined;
  const base = `_bound_${path.replaceAll('.', '_')}`;
  let name = base;
  for (let count = 2; job.memory.has(name); count += 1) name = `${base}_${count}`;
  const stuff = boundStuff(job, environment, path, name);
  if (!stuff) return undefined;
  job.memory.addNewStuff(name, stuff);
  return name;
}

/**
 * The graph pipe of an inline batch step: a `PipeBatch` named after the step pipe.
 * @param list - the list it batches over, when there is one (a lifted batch has none)
 */
function inlineBatchPipe(job: PipeJob, branch: Pipe, batchOver: string, list: Stuff | undefined): GraphPipe {
  return {
    ref: `${job.pipe.domain_code}.${branch.code}_batch`,
    code: `${branch.code}_batch`,
    domain_code: job.pipe.domain_code,
    type: 'PipeBatch',
    description: `Batch of ${branch.code} over '${batchOver}'`,
    inputs: list ? [{ name: batchOver, conceptRef: list.concept.ref, multiplicity: 'variable' }] : [],
    output: { conceptRef: branch.output.conceptRef, multiplicity: 'variable' },
  };
}

/** The stuff a batch step wrote under its result, for its graph node: the main stuff when the step changed it. */
function batchOutputs(job: PipeJob, outputName: string | null, mainBefore: Stuff | undefined): NodeStuff[] {
  const main = job.memory.mainStuff();
  return main && main !== mainBefore ? [{ name: outputName ?? main.stuffName ?? '', stuff: main }] : [];
}

/**
 * Lift an inline batch step whose dotted list path reaches no value
 * (docs/language.md#optionality-presence-markers-and-absences): a batch's output is plural,
 * and a plural slot is never absent, so its `result` is the empty list of the step pipe's output concept; no branch
 * runs. When the root is recorded absent, that skip is kept as a note in the absence ledger beside the empty list, as
 * for a lifted pipe with a plural output. When the run records a graph, the batch gets its node as a lifted pipe does:
 * `status: "skipped"`, with a `skip_reason` naming the path (presence-gate.ts).
 */
async function liftInlineBatch(job: PipeJob, environment: RunEnvironment, step: SubPipeBlueprint): Promise<void> {
  const branch = environment.library.resolvePipe(step.pipe, job.pipe.domain_code);
  const concept = environment.library.resolveConcept(branch.output.conceptRef, branch.domain_code);
  const outputName = step.result ?? null;
  const mainBefore = job.memory.mainStuff();
  await asGraphNode(
    environment,
    {
      pipe: inlineBatchPipe(job, branch, step.batch_over ?? '', undefined),
      parent: job.params.parentNode,
      inputs: () => [],
      outputs: () => batchOutputs(job, outputName, mainBefore),
    },
    async (node) => {
      if (node !== undefined) environment.graph?.skip(node, `skipped because input '${step.batch_over}' is absent`);
      storePipeOutput({ ...job, outputName }, environment, concept, { kind: 'list', items: [] });
      const root = pathRoot(step.batch_over ?? '');
      const rootAbsence = job.memory.absence(root);
      if (rootAbsence)
        job.memory.noteAbsence({
          variableName: outputName ?? 'main_stuff',
          kind: 'skipped',
          reason: `the batch of '${step.pipe}' over '${step.batch_over}' was skipped: '${root}' is absent`,
          producingPipe: job.pipe.code,
          upstream: rootAbsence,
        });
    },
  );
}

/** An inline batch step: the step pipe runs once per item of `batch_over`, the item bound as `batch_as`. */
async function runInlineBatch(
  job: PipeJob,
  environment: RunEnvironment,
  step: SubPipeBlueprint & { batch_over: string; batch_as: string },
): Promise<void> {
  const { library } = environment;
  const branch = library.resolvePipe(step.pipe, job.pipe.domain_code);
  const itemInput = branch.inputs.find((input) => input.name === step.batch_as);
  const list = job.memory.find(step.batch_over);
  const outputName = step.result ?? null;
  const mainBefore = job.memory.mainStuff();
  await asGraphNode(
    environment,
    {
      pipe: inlineBatchPipe(job, branch, step.batch_over, list),
      parent: job.params.parentNode,
      inputs: () => (list ? [{ name: step.batch_over, stuff: list }] : []),
      outputs: () => batchOutputs(job, outputName, mainBefore),
    },
    (node) =>
      runBatch(node === undefined ? job : { ...job, params: { ...job.params, parentNode: node } }, environment, {
        owner: `PipeSequence '${job.pipe.code}' step '${step.pipe}'`,
        listName: step.batch_over,
        itemName: step.batch_as,
        itemConcept: itemInput
          ? library.resolveConcept(itemInput.conceptRef, branch.domain_code)
          : (list?.concept ?? library.resolveConcept('native.Anything')),
        branch,
        outputConcept: library.resolveConcept(branch.output.conceptRef, branch.domain_code),
        outputName,
      }),
  );
}

/**
 * Run a PipeSequence job.
 * @throws whatever a step throws
 */
export const runPipeSequence: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeSequenceBlueprint;
  const mainBeforeSequence = job.memory.mainOutcome();
  for (const [index, step] of blueprint.steps.entries()) {
    const stepPath = childStepPath(job.params.stepPath, 'step', index);
    const outputName = step.result ?? null;
    const mainBeforeStep = job.memory.mainOutcome();
    const rootAbsence = isBindingStep(step) ? job.memory.absence(pathRoot(step.from)) : undefined;
    if (isBindingStep(step) && rootAbsence) {
      job.memory.setAbsentMainStuff({
        variableName: step.result,
        kind: 'skipped',
        reason: `the binding of '${step.from}' was skipped: '${pathRoot(step.from)}' is absent`,
        producingPipe: job.pipe.code,
        upstream: rootAbsence,
      });
    } else if (isBindingStep(step)) {
      const stuff = boundStuff(job, environment, step.from, step.result);
      if (stuff) job.memory.setNewMainStuff(stuff, step.result);
      else
        job.memory.setAbsentMainStuff({
          variableName: step.result,
          kind: 'declared_absent',
          reason: `the binding path '${step.from}' reaches no value`,
          producingPipe: job.pipe.code,
          upstream: null,
        });
    } else if (step.batch_over !== undefined && step.batch_as !== undefined) {
      const listName = step.batch_over.includes('.')
        ? bindPrivately(job, environment, step.batch_over)
        : step.batch_over;
      if (listName === undefined)
        await liftInlineBatch({ ...job, params: { ...job.params, stepPath } }, environment, step);
      else
        await runInlineBatch({ ...job, params: { ...job.params, stepPath } }, environment, {
          ...step,
          batch_over: listName,
          batch_as: step.batch_as,
        });
    } else {
      await environment.runPipe({
        pipe: environment.library.resolvePipe(step.pipe, job.pipe.domain_code),
        memory: job.memory,
        outputName,
        params: { ...job.params, outputMultiplicity: stepMultiplicityOverride(step), stepPath },
      });
    }
    if (job.memory.mainOutcome() !== mainBeforeStep) publishMainStuffAs(job.memory, outputName);
  }
  if (job.memory.mainOutcome() !== mainBeforeSequence) publishMainStuffAs(job.memory, job.outputName);
};
