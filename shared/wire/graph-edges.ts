/**
 * The edges of a graph on the wire that the recorder does not see (docs/graph-spec.md): `data` from producer to
 * consumer, `batch_item` and `batch_aggregate` between a batch and its item runs.
 */
import type { RunGraph } from '../runtime/graph-recorder.js';
import type { GraphEdge, GraphEdgeKind, GraphNode } from './graph-shapes.js';

/** The item suffix the batch mechanism gives an item's stuff code (`shared/runtime/controllers/run-batch.ts`). */
const BATCH_ITEM = /^(.*)-branch-(\d+)$/;

/** Adds an edge to the graph being built, its other members defaulted. */
export type AddEdge = (kind: GraphEdgeKind, source: string, target: string, extra?: Partial<GraphEdge>) => void;

/**
 * The `data` edges: from the last node to write a stuff (by digest) to each other node reading it, labelled with the
 * reader's input name.
 * @param graph - the recorded graph (its finish order)
 * @param nodes - its nodes on the wire
 * @param byId - the same nodes by id
 * @param add - adds an edge
 */
export function dataEdges(
  graph: RunGraph,
  nodes: readonly GraphNode[],
  byId: Map<string, GraphNode>,
  add: AddEdge,
): void {
  const producers = new Map<string, string>();
  for (const id of graph.finished)
    for (const output of byId.get(id)?.io.outputs ?? []) producers.set(output.digest, id);
  for (const node of nodes) {
    for (const input of node.io.inputs) {
      const producer = producers.get(input.digest);
      if (producer !== undefined && producer !== node.id) add('data', producer, node.id, { label: input.name });
    }
  }
}

/**
 * The `batch_item` edges (a batch → each node of an item run reading item `[i]`) and `batch_aggregate` edges (an item
 * run → its batch).
 * @param graph - the recorded graph (its `contains` pairs)
 * @param nodes - its nodes on the wire
 * @param byId - the same nodes by id
 * @param add - adds an edge
 */
export function batchEdges(
  graph: RunGraph,
  nodes: readonly GraphNode[],
  byId: Map<string, GraphNode>,
  add: AddEdge,
): void {
  const children = new Map<string, string[]>();
  for (const { source, target } of graph.contains) {
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
  for (const batch of nodes) {
    if (batch.pipe_type !== 'PipeBatch') continue;
    const lists = new Set(batch.io.inputs.map((input) => input.digest));
    const output = batch.io.outputs[0]?.digest ?? null;
    const aggregates: { child: GraphNode; index: string }[] = [];
    for (const child of children.get(batch.id) ?? []) {
      const childNode = byId.get(child)!;
      const item = itemOf(childNode, lists);
      if (!item) continue;
      aggregates.push({ child: childNode, index: item.index });
      const subtree = [child];
      for (let next = 0; next < subtree.length; next++) {
        const id = subtree[next]!;
        const read = itemOf(byId.get(id)!, lists);
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
