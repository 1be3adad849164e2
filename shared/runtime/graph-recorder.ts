/**
 * The execution graph of a run (API-CONTRACT.md §4.5 `GraphSpec`, best effort): one node per pipe run, `contains`
 * edges from a controller to the pipes it runs, `control` edges between consecutive steps of one controller, and
 * `selected_outcome` edges from a condition to the outcome it ran.
 */
import type { Pipe } from '../mthds/index.js';

/** A node of the graph. */
export interface GraphNode {
  id: string;
  kind: 'controller' | 'operator';
  pipe_code: string;
  pipe_type: string;
  description: string;
  domain_code: string;
  status: 'running' | 'succeeded' | 'failed';
  io: { inputs: { name: string; concept: string }[]; outputs: { name: string; concept: string }[] };
  error?: { error_type: string; message: string };
  tags: Record<string, never>;
  metrics: Record<string, never>;
  execution_data: Record<string, never>;
}

/** An edge of the graph. */
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  kind: 'contains' | 'control' | 'selected_outcome';
  optional: false;
  meta: Record<string, never>;
}

/** The graph of a run. Times are ISO-8601 UTC. */
export interface GraphSpec {
  graph_id: string;
  created_at: string;
  pipeline_ref: { domain: string; main_pipe: string };
  nodes: GraphNode[];
  edges: GraphEdge[];
  usage: null;
  meta: Record<string, never>;
  pipe_registry: Record<string, never>;
  concept_registry: Record<string, never>;
}

const CONTROLLERS = new Set(['PipeSequence', 'PipeParallel', 'PipeCondition', 'PipeBatch']);

/** Records pipe runs into a graph. */
export class GraphRecorder {
  private readonly nodes: GraphNode[] = [];
  /** The nodes by id, so opening and closing a node costs the same however large the graph is. */
  private readonly byId = new Map<string, GraphNode>();
  private readonly edges: GraphEdge[] = [];
  private readonly lastChild = new Map<string, string>();

  /**
   * Open a node for a pipe about to run.
   * @param pipe - the pipe
   * @param parent - the node of the controller running it, if any
   * @returns the node id
   */
  start(pipe: Pipe, parent: string | undefined): string {
    const id = `node_${this.nodes.length + 1}`;
    const node: GraphNode = {
      id,
      kind: CONTROLLERS.has(pipe.type) ? 'controller' : 'operator',
      pipe_code: pipe.code,
      pipe_type: pipe.type,
      description: pipe.description,
      domain_code: pipe.domain_code,
      status: 'running',
      io: {
        inputs: pipe.inputs.map((input) => ({ name: input.name, concept: input.conceptRef })),
        outputs: [{ name: 'output', concept: pipe.output.conceptRef }],
      },
      tags: {},
      metrics: {},
      execution_data: {},
    };
    this.nodes.push(node);
    this.byId.set(id, node);
    if (parent !== undefined) {
      const parentNode = this.byId.get(parent);
      this.edge(parent, id, parentNode?.pipe_type === 'PipeCondition' ? 'selected_outcome' : 'contains');
      const previous = this.lastChild.get(parent);
      if (previous !== undefined && parentNode?.pipe_type === 'PipeSequence') this.edge(previous, id, 'control');
      this.lastChild.set(parent, id);
    }
    return id;
  }

  /**
   * Close a node.
   * @param id - the node id
   * @param error - the failure, if the pipe failed
   */
  finish(id: string, error?: { error_type: string; message: string }): void {
    const node = this.byId.get(id);
    if (!node) return;
    node.status = error ? 'failed' : 'succeeded';
    if (error) node.error = error;
  }

  private edge(source: string, target: string, kind: GraphEdge['kind']): void {
    this.edges.push({ id: `edge_${this.edges.length + 1}`, source, target, kind, optional: false, meta: {} });
  }

  /**
   * The graph.
   * @param pipelineRef - domain and main pipe of the run
   * @param createdAt - ISO timestamp
   * @param graphId - an id for the graph
   */
  toSpec(pipelineRef: { domain: string; main_pipe: string }, createdAt: string, graphId: string): GraphSpec {
    return {
      graph_id: graphId,
      created_at: createdAt,
      pipeline_ref: pipelineRef,
      nodes: this.nodes,
      edges: this.edges,
      usage: null,
      meta: {},
      pipe_registry: {},
      concept_registry: {},
    };
  }
}
