/**
 * A method's graph, drawn from a `graph_spec` (docs/graph-spec.md) with React Flow and laid out by ELK: each pipe run
 * is a card, controllers (sequence, parallel, condition, batch) are groups holding the pipes they ran (`contains`
 * edges), and the stuff flowing between pipes (`data`, `batch_item`, `batch_aggregate` edges) are arrows labelled
 * with the reader's input name. Given `states` (pipe code → state), each card shows the state of its pipe in a run.
 */
import { Background, Controls, type Edge, Handle, type Node, type NodeProps, Position, ReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { ElkNode } from 'elkjs/lib/elk.bundled.js';
import { useEffect, useState } from 'react';
import type { GraphSpec } from '../wire';
import { Loading, ProblemView } from './states';

/** ELK, loaded with the first graph drawn: it is most of the bundle's weight, and the first page needs none of it. */
const elk = import('elkjs/lib/elk.bundled.js').then(({ default: ELK }) => new ELK());
const CARD = { width: 200, height: 58 };

/** What a card shows. */
type PipeCardData = {
  pipeCode: string;
  pipeType: string;
  state: string | undefined;
  /** A note under the card's type: the pipe's duration in a run. */
  note: string | undefined;
  controller: boolean;
};
type PipeCard = Node<PipeCardData, 'pipe'>;

function PipeCardView({ data }: NodeProps<PipeCard>) {
  return (
    <div
      className={`pipe-card ${data.controller ? 'controller' : 'operator'} state-${data.state ?? 'none'}`}
      data-pipe={data.pipeCode}
      data-state={data.state ?? ''}
    >
      {/* where the stuff arrows end (in) and start (out); not for drawing new ones */}
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div className="pipe-code">{data.pipeCode}</div>
      <div className="pipe-meta">
        <span>{data.pipeType}</span>
        {data.state ? <span className={`badge badge-${data.state}`}>{data.state}</span> : null}
      </div>
      {data.note ? <div className="pipe-note">{data.note}</div> : null}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

const NODE_TYPES = { pipe: PipeCardView };

/**
 * Lay the graph out: ELK nests each controller's children inside it and routes every stuff edge across the
 * hierarchy; React Flow then takes the positions (a child's relative to its parent, as both use them).
 */
async function layout(spec: GraphSpec): Promise<{ nodes: PipeCard[]; edges: Edge[] }> {
  const parentOf = new Map<string, string>();
  for (const edge of spec.edges) if (edge.kind === 'contains') parentOf.set(edge.target, edge.source);
  const elkNodes = new Map<string, ElkNode>(
    spec.nodes.map((node) => [node.id, { id: node.id, ...CARD, children: [] as ElkNode[] }]),
  );
  const roots: ElkNode[] = [];
  for (const node of spec.nodes) {
    const parent = parentOf.get(node.id);
    const elkNode = elkNodes.get(node.id)!;
    if (parent && elkNodes.has(parent)) elkNodes.get(parent)!.children!.push(elkNode);
    else roots.push(elkNode);
  }
  for (const elkNode of elkNodes.values())
    if (elkNode.children!.length > 0) {
      delete elkNode.width;
      delete elkNode.height;
      elkNode.layoutOptions = { 'elk.padding': '[top=64,left=16,bottom=16,right=16]' };
    }
  const flows = spec.edges.filter((edge) => edge.kind !== 'contains');
  const laid = await (await elk).layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.spacing.nodeNode': '28',
      'elk.layered.spacing.nodeNodeBetweenLayers': '44',
    },
    children: roots,
    edges: flows.map((edge) => ({ id: edge.id, sources: [edge.source], targets: [edge.target] })),
  });
  const byId = new Map(spec.nodes.map((node) => [node.id, node]));
  const nodes: PipeCard[] = [];
  const visit = (elkNode: ElkNode, parent: string | undefined) => {
    const node = byId.get(elkNode.id)!;
    const group = (elkNode.children ?? []).length > 0;
    nodes.push({
      id: node.id,
      type: 'pipe',
      position: { x: elkNode.x ?? 0, y: elkNode.y ?? 0 },
      ...(parent ? { parentId: parent, extent: 'parent' as const } : {}),
      style: { width: elkNode.width ?? CARD.width, height: elkNode.height ?? CARD.height },
      className: group ? 'group-node' : 'card-node',
      draggable: false,
      data: {
        pipeCode: node.pipe_code,
        pipeType: node.pipe_type,
        state: undefined,
        note: undefined,
        controller: node.kind === 'controller',
      },
    });
    for (const child of elkNode.children ?? []) visit(child, node.id);
  };
  for (const root of laid.children ?? []) visit(root, undefined);
  const edges: Edge[] = flows.map((edge) => ({
    id: edge.id,
    source: edge.source,
    target: edge.target,
    ...(edge.label ? { label: edge.label } : {}),
    className: `edge-${edge.kind}`,
    animated: edge.kind !== 'data',
  }));
  return { nodes, edges };
}

/**
 * The graph of a method or a run.
 * @param spec - the graph_spec to draw
 * @param states - each pipe code's state in a run (queued, running, finished, failed, skipped, stopped)
 * @param notes - a note per pipe code, shown on its card (its duration in a run)
 */
export function MethodGraph({
  spec,
  states,
  notes,
}: {
  spec: GraphSpec;
  states?: Record<string, string>;
  notes?: Record<string, string>;
}) {
  const [drawn, setDrawn] = useState<{ nodes: PipeCard[]; edges: Edge[] }>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let current = true;
    layout(spec).then(
      (result) => current && setDrawn(result),
      (failure: unknown) => current && setError(failure),
    );
    return () => {
      current = false;
    };
  }, [spec]);
  if (error) return <ProblemView error={error} />;
  if (!drawn) return <Loading what="the graph" />;
  const nodes = drawn.nodes.map((node) => ({
    ...node,
    data: { ...node.data, state: states?.[node.data.pipeCode], note: notes?.[node.data.pipeCode] },
  }));
  return (
    <div className="graph" data-testid="method-graph">
      <ReactFlow
        nodes={nodes}
        edges={drawn.edges}
        nodeTypes={NODE_TYPES}
        fitView
        nodesConnectable={false}
        minZoom={0.2}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
