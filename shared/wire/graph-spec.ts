/**
 * The execution graph on the wire (`pipe_output.graph_spec`, the ValidReport's `graph_spec`): a run's recorded graph
 * (`shared/runtime/graph-recorder.ts`) as a `GraphSpec` (`graph-shapes.ts`; docs/graph-spec.md): its nodes with their
 * io items, `contains` edges from what the recorder saw and the derived edges (`graph-edges.ts`), and the registries
 * of the pipes it ran.
 */
import type { Library, Multiplicity } from '../mthds/index.js';
import type { GraphNodeRecord, NodeStuff, RunGraph } from '../runtime/graph-recorder.js';
import { type GraphPipe, isControllerType } from '../runtime/graph-registries.js';
import type { Stuff } from '../runtime/stuff.js';
import { contentValue } from '../runtime/working-memory.js';
import { batchEdges, dataEdges } from './graph-edges.js';
import type {
  GraphConceptEntry,
  GraphEdge,
  GraphEdgeKind,
  GraphIoItem,
  GraphNode,
  GraphPipeEntry,
  GraphPipeIo,
  GraphSpec,
} from './graph-shapes.js';
import { conceptToWire } from './working-memory.js';

const PREVIEW_CHARS = 200;

/** Characters of `data_text` and `data_html` at most: renderings of `data`, cut so a large stuff is not tripled. */
const RENDERING_CHARS = 65_536;

function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function textOf(stuff: Stuff): string {
  const value = contentValue(stuff);
  if (!Array.isArray(value) && typeof value['text'] === 'string' && Object.keys(value).length === 1)
    return value['text'];
  return JSON.stringify(value, null, 2);
}

/** The renderings of each stuff, made once however many nodes read it (stuffs are replaced, never mutated). */
const renderings = new WeakMap<Stuff, { preview: string; data_text: string; data_html: string }>();

function renderingsOf(stuff: Stuff): { preview: string; data_text: string; data_html: string } {
  let rendered = renderings.get(stuff);
  if (!rendered) {
    const text = textOf(stuff);
    const dataText = cut(text, RENDERING_CHARS);
    rendered = { preview: cut(text, PREVIEW_CHARS), data_text: dataText, data_html: escapeHtml(dataText) };
    renderings.set(stuff, rendered);
  }
  return rendered;
}

/**
 * A stuff as a node's io item.
 * @param name - the name the node knows it by
 * @param stuff - the stuff
 */
export function ioItem(name: string, stuff: Stuff): GraphIoItem {
  const { preview, data_text, data_html } = renderingsOf(stuff);
  return {
    name,
    concept: stuff.concept.code,
    content_type: null,
    preview,
    size: stuff.content.kind === 'list' ? stuff.content.items.length : null,
    digest: stuff.stuffCode,
    data: stuff.content.kind === 'item' ? stuff.content.item : { items: stuff.content.items },
    data_text,
    data_html,
    extra: {},
  };
}

function ioItems(stuffs: readonly NodeStuff[]): GraphIoItem[] {
  return stuffs.map(({ name, stuff }) => ioItem(name, stuff));
}

/** A node still running when the graph is rendered shows as `canceled` (the reference's teardown status). */
function nodeSpec(node: GraphNodeRecord): GraphNode {
  const startedAt = new Date(node.startedAt).toISOString();
  const ended = node.endedAt ?? node.startedAt;
  const spec: GraphNode = {
    id: node.id,
    kind: node.kind,
    pipe_code: node.pipeCode,
    pipe_type: node.pipeType,
    status: node.status === 'running' ? 'canceled' : node.status,
    timing: {
      started_at: startedAt,
      ended_at: new Date(ended).toISOString(),
      duration: node.endedAt === null ? 0 : (node.endedAt - Date.parse(startedAt)) / 1000,
    },
    io: { inputs: ioItems(node.inputs), outputs: ioItems(node.outputs) },
    error: node.error && { error_type: node.error.errorType, message: node.error.message, stack: null },
    tags: {},
    metrics: {},
    execution_data: node.executionData,
  };
  if (node.skipReason !== undefined) spec.skip_reason = node.skipReason;
  return spec;
}

function multiplicityOf(multiplicity: Multiplicity): boolean | number | null {
  return multiplicity === 'single' ? null : multiplicity === 'variable' ? true : multiplicity;
}

/** The `pipe_registry` and `concept_registry` of the pipes a graph ran, each concept with its JSON schema. */
function graphRegistries(
  library: Library,
  pipes: Iterable<GraphPipe>,
): { pipe_registry: Record<string, GraphPipeEntry>; concept_registry: Record<string, GraphConceptEntry> } {
  const pipeRegistry: Record<string, GraphPipeEntry> = {};
  const conceptRegistry: Record<string, GraphConceptEntry> = {};
  const io = (conceptRef: string, multiplicity: Multiplicity, domain: string): GraphPipeIo | undefined => {
    const concept = library.findConcept(conceptRef, domain);
    if (!concept) return undefined;
    conceptRegistry[concept.ref] ??= { ...conceptToWire(concept), json_schema: library.contentSchema(concept) };
    return { concept: conceptToWire(concept), multiplicity: multiplicityOf(multiplicity) };
  };
  for (const pipe of pipes) {
    const output = io(pipe.output.conceptRef, pipe.output.multiplicity, pipe.domain_code);
    if (!output) continue;
    const inputs: Record<string, GraphPipeIo> = {};
    for (const input of pipe.inputs) {
      const entry = io(input.conceptRef, input.multiplicity, pipe.domain_code);
      if (entry) inputs[input.name] = entry;
    }
    pipeRegistry[pipe.ref] = {
      pipe_category: isControllerType(pipe.type) ? 'PipeController' : 'PipeOperator',
      type: pipe.type,
      code: pipe.code,
      domain_code: pipe.domain_code,
      description: pipe.description,
      inputs,
      output,
    };
  }
  return { pipe_registry: pipeRegistry, concept_registry: conceptRegistry };
}

/**
 * A recorded graph on the wire.
 * @param graph - the run's recorded graph
 * @param library - the library the run used (fills the registries)
 */
export function graphSpec(graph: RunGraph, library: Library): GraphSpec {
  const nodes = graph.nodes.map(nodeSpec);
  const byId = new Map(nodes.map((node) => [node.id, node]));
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
  for (const { source, target } of graph.contains) add('contains', source, target);
  dataEdges(graph, nodes, byId, add);
  batchEdges(graph, nodes, byId, add);
  return {
    graph_id: graph.graphId,
    created_at: new Date(graph.createdAt).toISOString(),
    pipeline_ref: { domain: graph.pipeline.domain, main_pipe: graph.pipeline.mainPipe, entrypoint: null },
    nodes,
    edges,
    usage: null,
    meta: {},
    ...graphRegistries(library, graph.pipes),
  };
}
