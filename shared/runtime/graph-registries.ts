/**
 * The `pipe_registry` and `concept_registry` of a graph (the reference runner's shapes, docs/graph-spec.md): every
 * pipe a node ran, and every concept those pipes read or write, with the concept's JSON schema.
 */
import type { Library, Multiplicity, Pipe } from '../mthds/index.js';
import type { GraphConceptEntry, GraphPipeEntry, GraphPipeIo } from './graph-spec.js';
import { conceptToWire } from './stuff.js';

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

function multiplicityOf(multiplicity: Multiplicity): boolean | number | null {
  return multiplicity === 'single' ? null : multiplicity === 'variable' ? true : multiplicity;
}

/**
 * The registries of the pipes a graph ran.
 * @param library - the library the run used
 * @param pipes - the pipes, each once
 */
export function graphRegistries(
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
