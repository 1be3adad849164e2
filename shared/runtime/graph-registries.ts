/**
 * The pipes a graph's nodes ran, as the graph records them (`shared/wire/graph-spec.ts` lists them, with the concepts
 * they read and write, in the graph's registries; docs/graph-spec.md).
 */
import type { Multiplicity, Pipe } from '../mthds/index.js';

const CONTROLLERS = new Set(['PipeSequence', 'PipeParallel', 'PipeCondition', 'PipeBatch']);

/** A pipe a graph node ran: a library pipe, or the PipeBatch an inline `batch_over` step stands for. */
export interface GraphPipe {
  ref: string;
  code: string;
  domain_code: string;
  type: string;
  description: string;
  inputs: { name: string; conceptRef: string; multiplicity: Multiplicity }[];
  output: { conceptRef: string; multiplicity: Multiplicity };
}

/**
 * Whether a pipe type is a controller.
 * @param type - a pipe type
 */
export function isControllerType(type: string): boolean {
  return CONTROLLERS.has(type);
}

/**
 * A library pipe as a graph pipe.
 * @param pipe - the pipe
 */
export function graphPipeOf(pipe: Pipe): GraphPipe {
  return {
    ref: pipe.ref,
    code: pipe.code,
    domain_code: pipe.domain_code,
    type: pipe.type,
    description: pipe.description,
    inputs: pipe.inputs,
    output: pipe.output,
  };
}
