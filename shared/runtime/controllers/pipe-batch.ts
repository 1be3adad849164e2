/**
 * PipeBatch: run `branch_pipe_code` once per item of `input_list_name`, the item bound as `input_item_name`
 * (docs/runtime.md#pipebatch, docs/pipes.md#pipebatch).
 */
import type { PipeBatchBlueprint } from '../../mthds/index.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeRunner } from '../pipe-job.js';
import { runBatch } from './run-batch.js';

/**
 * Run a PipeBatch job.
 * @throws PipeInputError when the list is missing or not a list; whatever a branch throws
 */
export const runPipeBatch: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeBatchBlueprint;
  const { library } = environment;
  const declared = job.pipe.inputs.find((input) => input.name === blueprint.input_list_name);
  const list = job.memory.find(blueprint.input_list_name);
  const itemConcept = declared ? library.resolveConcept(declared.conceptRef, job.pipe.domain_code) : list!.concept;
  await runBatch(job, environment, {
    owner: `PipeBatch '${job.pipe.code}'`,
    listName: blueprint.input_list_name,
    itemName: blueprint.input_item_name,
    itemConcept,
    branch: library.resolvePipe(blueprint.branch_pipe_code, job.pipe.domain_code),
    outputConcept: outputConceptOf(job, library),
    outputName: job.outputName,
  });
};
