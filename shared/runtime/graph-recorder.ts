/**
 * Records the execution graph of a run (API-CONTRACT.md §4.5 `GraphSpec`) in the reference runner's shape
 * (docs/graph-spec.md): one node per pipe run with its timing, error and io items (each stuff's digest is its stuff
 * code, so the stuff a pipe writes and the one the next pipe reads connect), lifted pipes as `skipped` nodes with
 * their `skip_reason`, `contains` edges from a controller to
 * the pipes it runs (every outcome of a dry-run condition, every item run of a batch), and, derived when the graph is
 * built, `data` edges from the last node to write a stuff to each node reading it, and `batch_item` /
 * `batch_aggregate` edges between a batch and its item runs.
 */
import type { Library } from '../mthds/index.js';
import { type GraphPipe, graphRegistries, isControllerType } from './graph-registries.js';
import type { GraphEdge, GraphEdgeKind, GraphError, GraphIoItem, GraphNode, GraphSpec } from './graph-spec.js';

/** The item suffix the batch mechanism gives an item's stuff code (`run-batch.ts`). */
const BATCH_ITEM = /^(.*)-branch-(\d+)$/;

/**
 * The nodes a recorder holds, as plain JSON, for another recorder to take in (a fanned-out child's graph joining its
 * run's, docs/fan-out.md): nodes in start order, `contains` edges, node ids in finish order, and the pipes run.
 */
export interface GraphFragment {
  nodes: GraphNode[];
  contains: { source: string; target: string }[];
  finished: string[];
  pipes: GraphPipe[];
}

/** Records pipe runs into a graph. */
export class GraphRecorder {
  private readonly nodes: GraphNode[] = [];
  /** The nodes by id, so opening and closing a node costs the same however large the graph is. */
  private readonly byId = new Map<string, GraphNode>();
  private readonly containsEdges: { source: string; target: string }[] = [];
  /** Node ids in the order they finished: the last to finish writing a digest is its producer. */
  private readonly finished: string[] = [];
  private readonly pipes = new Map<string, GraphPipe>();

  /**
   * Open a node for a pipe about to run.
   * @param pipe - the pipe
   * @param parent - the node of the controller running it, if any
   * @param inputs - the stuffs it reads
   * @param at - start time, epoch milliseconds
   * @returns the node id
   */
  start(pipe: GraphPipe, parent: string | undefined, inputs: GraphIoItem[], at: number): string {
    const id = `node_${this.nodes.length}`;
    const node: GraphNode = {
      id,
      kind: isControllerType(pipe.type) ? 'controller' : 'operator',
      pipe_code: pipe.code,
      pipe_type: pipe.type,
      status: 'running',
      timing: { started_at: new Date(at).toISOString(), ended_at: new Date(at).toISOString(), duration: 0 },
      io: { inputs, outputs: [] },
      error: null,
      tags: {},
      metrics: {},
      execution_data: {},
    };
    this.nodes.push(node);
    this.byId.set(id, node);
    if (!this.pipes.has(pipe.ref)) this.pipes.set(pipe.ref, pipe);
    if (parent !== undefined) this.containsEdges.push({ source: parent, target: id });
    return id;
  }

  /**
   * Mark an open node as skipped (its pipe was lifted); closing it keeps that status.
   * @param id - the node id
   * @param reason - the sentence naming the absent input
   */
  skip(id: string, reason: string): void {
    const node = this.byId.get(id);
    if (!node) return;
    node.status = 'skipped';
    node.skip_reason = reason;
  }

  /**
   * Record what an operator reports about its run on its open node (`NodeSpec.execution_data`, an open object in the
   * 0.16 contract).
   * @param id - the node id
   * @param data - plain JSON data
   */
  recordExecutionData(id: string, data: Record<string, unknown>): void {
    const node = this.byId.get(id);
    if (node) node.execution_data = data;
  }

  /**
   * Close a node.
   * @param id - the node id
   * @param outputs - the stuffs it wrote (empty when it failed or wrote nothing)
   * @param at - end time, epoch milliseconds
   * @param error - the failure, if the pipe failed
   */
  finish(id: string, outputs: GraphIoItem[], at: number, error?: Omit<GraphError, 'stack'>): void {
    const node = this.byId.get(id);
    if (!node) return;
    node.status = error ? 'failed' : node.status === 'skipped' ? 'skipped' : 'succeeded';
    node.io.outputs = outputs;
    node.timing.ended_at = new Date(at).toISOString();
    node.timing.duration = (at - Date.parse(node.timing.started_at)) / 1000;
    if (error) node.error = { ...error, stack: null };
    this.finished.push(id);
  }

  /** What this recorder holds, as a {@link GraphFragment}. */
  fragment(): GraphFragment {
    return {
      nodes: this.nodes,
      contains: this.containsEdges,
      finished: this.finished,
      pipes: [...this.pipes.values()],
    };
  }

  /**
   * Take in the nodes of another recorder, renumbered after this one's; its top nodes become children of `parent`.
   * @param fragment - the other recorder's {@link fragment}
   * @param parent - the node of the controller that ran them, if any
   */
  absorb(fragment: GraphFragment, parent: string | undefined): void {
    const ids = new Map<string, string>();
    for (const node of fragment.nodes) {
      const id = `node_${this.nodes.length}`;
      ids.set(node.id, id);
      const copy = { ...node, id };
      this.nodes.push(copy);
      this.byId.set(id, copy);
    }
    const nested = new Set(fragment.contains.map(({ target }) => target));
    if (parent !== undefined)
      for (const node of fragment.nodes)
        if (!nested.has(node.id)) this.containsEdges.push({ source: parent, target: ids.get(node.id)! });
    for (const { source, target } of fragment.contains)
      this.containsEdges.push({ source: ids.get(source)!, target: ids.get(target)! });
    for (const id of fragment.finished) this.finished.push(ids.get(id)!);
    for (const pipe of fragment.pipes) if (!this.pipes.has(pipe.ref)) this.pipes.set(pipe.ref, pipe);
  }

  /**
   * The graph.
   * @param library - the library the run used (fills the registries)
   * @param pipelineRef - domain and main pipe of the run
   * @param createdAt - ISO timestamp
   * @param graphId - an id for the graph
   */
  toSpec(
    library: Library,
    pipelineRef: { domain: string; main_pipe: string },
    createdAt: string,
    graphId: string,
  ): GraphSpec {
    const edges: GraphEdge[] = [];
    const add = (kind: GraphEdgeKind, source: string, target: string, extra: Partial<GraphEdge> = {}): void => {
      edges.push({
        id: `edge_${edges.length}`,
        source,
        target,
        kind,
        label: null,
        source_stuff_digest: null,
        target_stuff_digest: null,
        meta: {},
        ...extra,
      });
    };
    for (const node of this.nodes) if (node.status === 'running') node.status = 'canceled';
    for (const { source, target } of this.containsEdges) add('contains', source, target);
    this.dataEdges(add);
    this.batchEdges(add);
    return {
      graph_id: graphId,
      created_at: createdAt,
      pipeline_ref: { ...pipelineRef, entrypoint: null },
      nodes: this.nodes,
      edges,
      usage: null,
      meta: {},
      ...graphRegistries(library, this.pipes.values()),
    };
  }

  private dataEdges(add: (kind: GraphEdgeKind, source: string, target: string, extra: Partial<GraphEdge>) => void) {
    const producers = new Map<string, string>();
    for (const id of this.finished)
      for (const output of this.byId.get(id)?.io.outputs ?? []) producers.set(output.digest, id);
    for (const node of this.nodes) {
      for (const input of node.io.inputs) {
        const producer = producers.get(input.digest);
        if (producer !== undefined && producer !== node.id) add('data', producer, node.id, { label: input.name });
      }
    }
  }

  private batchEdges(add: (kind: GraphEdgeKind, source: string, target: string, extra: Partial<GraphEdge>) => void) {
    const children = new Map<string, string[]>();
    for (const { source, target } of this.containsEdges) {
      const list = children.get(source);
      if (list) list.push(target);
      else children.set(source, [target]);
    }
    const itemOf = (node: GraphNode, lists: Set<string>): { list: string; item: string; index: string } | undefined => {
      for (const input of node.io.inputs) {
        const match = BATCH_ITEM.exec(input.digest);
        if (match && lists.has(match[1]!)) return { list: match[1]!, item: input.digest, index: match[2]! };
      }
      return undefined;
    };
    for (const batch of this.nodes) {
      if (batch.pipe_type !== 'PipeBatch') continue;
      const lists = new Set(batch.io.inputs.map((input) => input.digest));
      const output = batch.io.outputs[0]?.digest ?? null;
      const aggregates: { child: GraphNode; index: string }[] = [];
      for (const child of children.get(batch.id) ?? []) {
        const childNode = this.byId.get(child)!;
        const item = itemOf(childNode, lists);
        if (!item) continue;
        aggregates.push({ child: childNode, index: item.index });
        const subtree = [child];
        for (let next = 0; next < subtree.length; next++) {
          const id = subtree[next]!;
          const read = itemOf(this.byId.get(id)!, lists);
          if (read)
            add('batch_item', batch.id, id, {
              label: `[${read.index}]`,
              source_stuff_digest: read.list,
              target_stuff_digest: read.item,
            });
          subtree.push(...(children.get(id) ?? []));
        }
      }
      for (const { child, index } of aggregates)
        add('batch_aggregate', child.id, batch.id, {
          label: `[${index}]`,
          source_stuff_digest: child.io.outputs[0]?.digest ?? null,
          target_stuff_digest: output,
        });
    }
  }
}
