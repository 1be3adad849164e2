/**
 * PipeSequence: run the steps in order on one shared working memory; each step's output is stored under its
 * `result` and becomes the main stuff; the sequence's output is the last step's (RUNTIME.md §3.1–3.2).
 *
 * Decision (RUNTIME.md §3.1 ⚠): after a step, when its `result` is set but the main stuff is stored under another
 * name (a controller child ignores its output name), the main stuff is also published under `result`. The same holds
 * for the sequence's own output name. This is a superset of the reference behaviour.
 */
import { PipeFeatureNotSupportedError } from '../../errors/index.js';
import type { PipeSequenceBlueprint } from '../../mthds/index.js';
import { stepMultiplicityOverride } from '../multiplicity.js';
import type { PipeJob, PipeRunner } from '../pipe-job.js';
import type { WorkingMemory } from '../working-memory.js';

/**
 * Make sure the main stuff is stored under `name`.
 * @param memory - the working memory
 * @param name - the wanted output name, or null for none
 */
export function publishMainStuffAs(memory: WorkingMemory, name: string | null): void {
  const main = memory.mainStuff();
  if (name === null || !main || memory.mainStuffName() === name) return;
  memory.setNewMainStuff(main, name);
}

/**
 * Run a PipeSequence job.
 * @throws PipeFeatureNotSupportedError (501) for an inline batch step; whatever a step throws
 */
export const runPipeSequence: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeSequenceBlueprint;
  for (const step of blueprint.steps) {
    if (step.batch_over !== undefined) {
      throw new PipeFeatureNotSupportedError(`PipeSequence '${job.pipe.code}': inline batching (batch_over) is not supported by this runner yet.`);
    }
    const child: PipeJob = {
      pipe: environment.library.resolvePipe(step.pipe, job.pipe.domain_code),
      memory: job.memory,
      outputName: step.result ?? null,
      params: { ...job.params, outputMultiplicity: stepMultiplicityOverride(step) },
    };
    await environment.runPipe(child);
    publishMainStuffAs(job.memory, child.outputName);
  }
  publishMainStuffAs(job.memory, job.outputName);
};
