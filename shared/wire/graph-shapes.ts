/**
 * The execution graph's wire shapes: the reference runner's `GraphSpec` (pipelex, as read by Pipelex/mthds-ui 0.5.1
 * `src/graph/types.ts`; docs/graph-spec.md). `graph-spec.ts` builds one from a recorded graph.
 */

/** One stuff a node read or wrote. `digest` is the stuff code: the same stuff has the same digest across nodes. */
export interface GraphIoItem {
  name: string;
  /** The bare concept code (`Text`, `Page`; no domain, no multiplicity). */
  concept: string;
  content_type: null;
  preview: string | null;
  /** Items of a list stuff, else null. */
  size: number | null;
  digest: string;
  /** The content as JSON (an item object, or `{items: [...]}` for a list). */
  data: unknown;
  /** The content as text (a Text's text, else indented JSON), cut after 65,536 characters with `…`. */
  data_text: string;
  /** `data_text`, HTML-escaped. */
  data_html: string;
  extra: Record<string, never>;
}

/** When a node ran: ISO-8601 UTC times and the duration in seconds (the start and 0 until it ends). */
export interface GraphTiming {
  started_at: string;
  ended_at: string;
  duration: number;
}

/** A node's failure. */
export interface GraphError {
  error_type: string;
  message: string;
  stack: null;
}

/** A node: one pipe run. */
export interface GraphNode {
  id: string;
  kind: 'controller' | 'operator';
  pipe_code: string;
  pipe_type: string;
  /**
   * `canceled`: still running when the graph was built (the reference's teardown status); `skipped`: lifted because a
   * plain input was absent (docs/language.md#optionality-presence-markers-and-absences), a successful outcome.
   */
  status: 'running' | 'succeeded' | 'failed' | 'skipped' | 'canceled';
  /** Set on a `skipped` node only: the sentence naming the absent input (pipelex-api 0.16 `NodeSpec.skip_reason`). */
  skip_reason?: string;
  timing: GraphTiming;
  io: { inputs: GraphIoItem[]; outputs: GraphIoItem[] };
  error: GraphError | null;
  tags: Record<string, never>;
  metrics: Record<string, never>;
  /** What an operator records about its run (a PipeJudge's rendered questions and raw answers); `{}` otherwise. */
  execution_data: Record<string, unknown>;
}

/**
 * The edge kinds served: `contains` (controller → child), `data` (producer → consumer of a stuff, labelled with the
 * consumer's input name), `batch_item` (batch → the pipes reading item `[i]`), `batch_aggregate` (item run → batch).
 */
export type GraphEdgeKind = 'contains' | 'data' | 'batch_item' | 'batch_aggregate';

/** An edge. */
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  kind: GraphEdgeKind;
  label: string | null;
  source_stuff_digest: string | null;
  target_stuff_digest: string | null;
  meta: Record<string, never>;
}

/** A concept as the registries show it. */
export interface GraphConcept {
  code: string;
  domain_code: string;
  description: string;
  structure_class_name: string;
  refines: string | null;
}

/** One pipe input or output in `pipe_registry`. */
export interface GraphPipeIo {
  concept: GraphConcept;
  /** Null for one item, `true` for a variable list, N for exactly N items. */
  multiplicity: boolean | number | null;
}

/** A `pipe_registry` entry, keyed by pipe ref. */
export interface GraphPipeEntry {
  pipe_category: 'PipeController' | 'PipeOperator';
  type: string;
  code: string;
  domain_code: string;
  description: string;
  inputs: Record<string, GraphPipeIo>;
  output: GraphPipeIo;
}

/** A `concept_registry` entry, keyed by concept ref. */
export interface GraphConceptEntry extends GraphConcept {
  json_schema: Record<string, unknown>;
}

/** The graph of a run. */
export interface GraphSpec {
  graph_id: string;
  created_at: string;
  pipeline_ref: { domain: string; main_pipe: string; entrypoint: null };
  nodes: GraphNode[];
  edges: GraphEdge[];
  usage: null;
  meta: Record<string, never>;
  pipe_registry: Record<string, GraphPipeEntry>;
  concept_registry: Record<string, GraphConceptEntry>;
}
