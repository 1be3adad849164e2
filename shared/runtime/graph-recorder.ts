/**
 * Records the execution graph of a run: one node per pipe run with its timing, its failure and the stuffs it read and
 * wrote (the same stuff has the same stuff code across nodes, so the stuff a pipe writes and the one the next pipe
 * reads connect), lifted pipes as skipped nodes with their reason, and which controller ran which pipe (every outcome
 * of a dry-run condition, every item run of a batch). `shared/wire/graph-spec.ts` renders a recorded graph as the
 * reference runner's `GraphSpec` (docs/graph-spec.md) and derives its edges.
 */
import { type GraphPipe, isControllerType } from './graph-registries.js';
import type { Stuff } from './stuff.js';

/** A stuff a node read or wrote, under the name the node knows it by. */
export interface NodeStuff {
  name: string;
  stuff: Stuff;
}

/** One pipe run of a graph. */
export interface GraphNodeRecord {
  /** `node_<n>`, numbered in start order. */
  id: string;
  kind: 'controller' | 'operator';
  pipeCode: string;
  pipeType: string;
  /** `skipped`: lifted because a plain input was absent, a successful outcome. */
  status: 'running' | 'succeeded' | 'failed' | 'skipped';
  /** Start time, epoch milliseconds. */
  startedAt: number;
  /** End time, epoch milliseconds; null while the node runs. */
  endedAt: number | null;
  inputs: NodeStuff[];
  outputs: NodeStuff[];
  /** The failure, when the pipe failed. */
  error: { errorType: string; message: string } | null;
  /** What an operator records about its run (a PipeJudge's rendered questions and raw answers); `{}` otherwise. */
  executionData: Record<string, unknown>;
  /** Set on a skipped node only: the sentence naming the absent input. */
  skipReason?: string;
}

/**
 * The nodes a recorder holds, as plain JSON, for another recorder to take in (a fanned-out child's graph joining its
 * run's, docs/fan-out.md) or for the wire to render: nodes in start order, `contains` pairs (controller → the pipes
 * it ran), node ids in finish order, and the pipes run.
 */
export interface GraphFragment {
  nodes: GraphNodeRecord[];
  contains: { source: string; target: string }[];
  finished: string[];
  pipes: GraphPipe[];
}

/** A run's recorded graph with what names it: its id, when it was made, and the pipe it ran from. */
export interface RunGraph extends GraphFragment {
  graphId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** The domain and code of the pipe the run started from. */
  pipeline: { domain: string; mainPipe: string };
}

/** Records pipe runs into a graph. */
export class GraphRecorder {
  private readonly nodes: GraphNodeRecord[] = [];
  /** The nodes by id, so opening and closing a node costs the same however large the graph is. */
  private readonly byId = new Map<string, GraphNodeRecord>();
  private readonly containsEdges: { source: string; target: string }[] = [];
  /** Node ids in the order they finished: the last to finish writing a stuff is its producer. */
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
  start(pipe: GraphPipe, parent: string | undefined, inputs: NodeStuff[], at: number): string {
    const id = `node_${this.nodes.length}`;
    const node: GraphNodeRecord = {
      id,
      kind: isControllerType(pipe.type) ? 'controller' : 'operator',
      pipeCode: pipe.code,
      pipeType: pipe.type,
      status: 'running',
      startedAt: at,
      endedAt: null,
      inputs,
      outputs: [],
      error: null,
      executionData: {},
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
    node.skipReason = reason;
  }

  /**
   * Record what an operator reports about its run on its open node.
   * @param id - the node id
   * @param data - plain JSON data
   */
  recordExecutionData(id: string, data: Record<string, unknown>): void {
    const node = this.byId.get(id);
    if (node) node.executionData = data;
  }

  /**
   * Close a node.
   * @param id - the node id
   * @param outputs - the stuffs it wrote (empty when it failed or wrote nothing)
   * @param at - end time, epoch milliseconds
   * @param error - the failure, if the pipe failed
   */
  finish(id: string, outputs: NodeStuff[], at: number, error?: { errorType: string; message: string }): void {
    const node = this.byId.get(id);
    if (!node) return;
    node.status = error ? 'failed' : node.status === 'skipped' ? 'skipped' : 'succeeded';
    node.outputs = outputs;
    node.endedAt = at;
    if (error) node.error = error;
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
   * The recorded graph, named.
   * @param graphId - an id for the graph
   * @param createdAt - epoch milliseconds
   * @param pipeline - the domain and code of the pipe the run started from
   */
  graph(graphId: string, createdAt: number, pipeline: { domain: string; mainPipe: string }): RunGraph {
    return { graphId, createdAt, pipeline, ...this.fragment() };
  }
}
