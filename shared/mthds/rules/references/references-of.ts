/**
 * Where references are written (docs/namespaces.md#where-references-occur): the pipe references of a controller and the
 * concept references of a
 * pipe, each with the field it sits in.
 * @see docs/namespaces.md#where-references-occur
 */
import type { Pipe } from '../../library/concept.js';
import type { LoadedBundle } from '../../library/library.js';
import { isBindingStep } from '../../parse/sequence-steps.js';
import { SPECIAL_OUTCOMES, splitPresence } from '../../references.js';

/** A reference and the field (path inside the pipe table) it is written in. */
export interface ReferenceAt {
  field: string;
  ref: string;
}

/**
 * The pipe references of a pipe: steps, branches, outcomes and default outcome (without `fail` / `continue`), batch
 * branch pipe.
 * @param pipe - any pipe
 */
export function pipeRefsOf(pipe: Pipe): ReferenceAt[] {
  const blueprint = pipe.blueprint;
  switch (blueprint.type) {
    case 'PipeSequence':
      return blueprint.steps.flatMap((step, index) =>
        isBindingStep(step) ? [] : [{ field: `steps[${index}].pipe`, ref: step.pipe }],
      );
    case 'PipeParallel':
      return blueprint.branches.map((branch, index) => ({ field: `branches[${index}].pipe`, ref: branch.pipe }));
    case 'PipeCondition':
      return [
        ...Object.entries(blueprint.outcomes).map(([key, ref]) => ({ field: `outcomes.${key}`, ref })),
        { field: 'default_outcome', ref: blueprint.default_outcome },
      ].filter(({ ref }) => !SPECIAL_OUTCOMES.has(ref));
    case 'PipeBatch':
      return [{ field: 'branch_pipe_code', ref: blueprint.branch_pipe_code }];
    default:
      return [];
  }
}

/**
 * The concept references of a pipe: input values and output (presence markers split off), and `combined_output`.
 * @param pipe - any pipe
 */
export function conceptRefsOf(pipe: Pipe): ReferenceAt[] {
  const refs = [
    ...Object.entries(pipe.blueprint.inputs ?? {}).map(([name, spec]) => ({
      field: `inputs.${name}`,
      ref: splitPresence(spec).ref,
    })),
    { field: 'output', ref: splitPresence(pipe.blueprint.output).ref },
  ];
  if (pipe.blueprint.type === 'PipeParallel' && pipe.blueprint.combined_output !== undefined)
    refs.push({ field: 'combined_output', ref: pipe.blueprint.combined_output });
  return refs;
}

/** A concept reference written inside a concept table. */
export interface ConceptTableRef extends ReferenceAt {
  /** The declaring concept's code. */
  code: string;
}

/**
 * The concept references inside the concept tables of a bundle: `refines`, and the `concept_ref` / `item_concept_ref`
 * of structure fields (field paths relative to the concept table).
 * @param bundle - the bundle
 */
export function conceptTableRefsOf(bundle: LoadedBundle): ConceptTableRef[] {
  return Object.entries(bundle.blueprint.concept).flatMap(([code, concept]) => {
    if (typeof concept === 'string') return [];
    const refs: ConceptTableRef[] =
      concept.refines === undefined ? [] : [{ code, field: 'refines', ref: concept.refines }];
    if (typeof concept.structure !== 'object') return refs;
    for (const [name, field] of Object.entries(concept.structure)) {
      if (typeof field === 'string') continue;
      if (field.concept_ref !== undefined)
        refs.push({ code, field: `structure.${name}.concept_ref`, ref: field.concept_ref });
      if (field.item_concept_ref !== undefined)
        refs.push({ code, field: `structure.${name}.item_concept_ref`, ref: field.item_concept_ref });
    }
    return refs;
  });
}
