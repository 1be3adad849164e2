/**
 * The batch mechanism shared by PipeBatch and inline `batch_over` / `batch_as` steps (docs/runtime.md#pipebatch,
 * docs/language.md
 * §4.5): each item of a list stuff runs the branch pipe on its own copy of the working memory, where the item is both
 * a named stuff and the main stuff; at most `batchConcurrency` branches run at once (in-process, or as child jobs
 * elsewhere: child-jobs.ts); outputs are collected in input
 * order into one list stuff. An empty list gives an empty list; any branch failure fails the batch; a branch whose
 * output resolves absent (lifted) is compacted out of the list
 * (docs/language.md#optionality-presence-markers-and-absences).
 *
 * Decision (docs/data-flow.md#batching nested lists): when a branch outputs a list, its items are appended (flattened
 * one
 * level), so a batch of extractions (`Page[]` per document) yields one `Page[]`.
 */
import { PipeInputError } from '../../errors/index.js';
import type { Concept, Pipe } from '../../mthds/index.js';
import { runChildJobs } from '../child-jobs.js';
import type { PipeJob, RunEnvironment } from '../pipe-job.js';
import { childStepPath } from '../step-path.js';
import { defaultStuffName, type ItemContent } from '../stuff.js';

/** One batch to run. */
export interface BatchSpec {
  /** The controller running the batch (for messages). */
  owner: string;
  listName: string;
  itemName: string;
  itemConcept: Concept;
  branch: Pipe;
  outputConcept: Concept;
  outputName: string | null;
}

/**
 * Run a batch inside a job's working memory; the collected list becomes the main stuff.
 * @param job - the controller's job (its memory receives the output)
 * @param environment - the run environment
 * @param spec - list, item, branch and output
 * @throws PipeInputError when the list stuff is missing or not a list; whatever a branch throws
 */
export async function runBatch(job: PipeJob, environment: RunEnvironment, spec: BatchSpec): Promise<void> {
  const list = job.memory.find(spec.listName);
  if (!list)
    throw new PipeInputError(`${spec.owner}: the list '${spec.listName}' to batch over is not in the working memory.`);
  if (list.content.kind !== 'list')
    throw new PipeInputError(`${spec.owner}: '${spec.listName}' must hold a list to batch over, but holds one item.`);
  const { items: listItems } = list.content;
  const outcomes = await runChildJobs(environment, listItems.length, (index) => {
    const memory = job.memory.clone();
    memory.setNewMainStuff(
      {
        stuffCode: `${list.stuffCode}-branch-${index}`,
        stuffName: spec.itemName,
        concept: spec.itemConcept,
        content: { kind: 'item', item: listItems[index]! },
      },
      spec.itemName,
    );
    return {
      pipe: spec.branch,
      memory,
      outputName: null,
      params: { ...job.params, outputMultiplicity: null, stepPath: childStepPath(job.params.stepPath, 'item', index) },
    };
  });
  const outputs = outcomes.map(({ stuff }) => stuff?.content ?? { kind: 'list' as const, items: [] });
  const items: ItemContent[] = outputs.flatMap((content) => (content.kind === 'item' ? [content.item] : content.items));
  job.memory.setNewMainStuff(
    {
      stuffCode: environment.deps.ids.next(),
      stuffName: spec.outputName ?? defaultStuffName(spec.outputConcept.code),
      concept: spec.outputConcept,
      content: { kind: 'list', items },
    },
    spec.outputName,
  );
}
