/**
 * Running a pipe as one node of the recorded graph (graph-recorder.ts): the stuffs it reads, the stuffs it writes,
 * its timing and its failure.
 */
import type { NodeStuff } from './graph-recorder.js';
import type { GraphPipe } from './graph-registries.js';
import type { PipeJob, RunEnvironment } from './pipe-job.js';
import { defaultStuffName, type Stuff } from './stuff.js';

/**
 * The stuffs a job's pipe reads: each declared input's root name (`doc` for `doc.title`), once.
 * @param job - the job
 */
export function nodeInputs(job: PipeJob): NodeStuff[] {
  const items = new Map<string, NodeStuff>();
  for (const input of job.pipe.inputs) {
    const root = input.name.split('.')[0] ?? input.name;
    const stuff = job.memory.find(root);
    if (stuff && !items.has(root)) items.set(root, { name: root, stuff });
  }
  return [...items.values()];
}

/**
 * The stuffs a job's pipe wrote: its main stuff (when the run changed it), or, for a PipeParallel with
 * `add_each_output`, each branch's result (and the combination when `combined_output` is set).
 * @param job - the job, after its run
 * @param mainBefore - the main stuff before the run
 */
export function nodeOutputs(job: PipeJob, mainBefore: Stuff | undefined): NodeStuff[] {
  const main = job.memory.mainStuff();
  const mainItem =
    main && main !== mainBefore
      ? [{ name: job.outputName ?? main.stuffName ?? defaultStuffName(main.concept.code), stuff: main }]
      : [];
  const blueprint = job.pipe.blueprint;
  if (blueprint.type !== 'PipeParallel' || blueprint.add_each_output !== true) return mainItem;
  const branches = blueprint.branches.flatMap((branch) => {
    const stuff = branch.result === undefined ? undefined : job.memory.find(branch.result);
    return stuff && branch.result !== undefined ? [{ name: branch.result, stuff }] : [];
  });
  const digests = new Set(branches.map((item) => item.stuff.stuffCode));
  const combined = blueprint.combined_output ? mainItem.filter((item) => !digests.has(item.stuff.stuffCode)) : [];
  return [...branches, ...combined];
}

/**
 * Run something as a graph node when the environment records a graph: open the node, run with the node as the
 * children's parent, close it with its outputs or its failure (then rethrow).
 * @param environment - the run environment
 * @param node - the pipe, its parent node, the stuffs it reads, and how to read what it wrote
 * @param run - the run, given the node id (undefined when no graph is recorded)
 */
export async function asGraphNode(
  environment: RunEnvironment,
  node: { pipe: GraphPipe; parent: string | undefined; inputs: () => NodeStuff[]; outputs: () => NodeStuff[] },
  run: (nodeId: string | undefined) => Promise<void>,
): Promise<void> {
  const { graph } = environment;
  if (!graph) return run(undefined);
  const now = environment.deps.now;
  const id = graph.start(node.pipe, node.parent, node.inputs(), now());
  try {
    await run(id);
  } catch (error) {
    const failure = error as { error_type?: string; message?: string };
    graph.finish(id, [], now(), {
      errorType: failure.error_type ?? 'Error',
      message: failure.message ?? String(error),
    });
    throw error;
  }
  graph.finish(id, node.outputs(), now());
}
