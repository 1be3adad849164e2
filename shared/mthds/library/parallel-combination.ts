/**
 * How a PipeParallel's declared output receives the combination of its branches (docs/pipes.md#pipeparallel, the 0.16
 * PipeParallelBlueprint without `combined_output`): the output is the native `Composite` (or a refinement), an open
 * object `{<result>: <content>}`; or a structured concept whose required fields are all branch results and whose
 * fields include every branch result. Anything else cannot hold the combination.
 */
import type { Concept, ConceptField, Pipe } from './concept.js';
import type { Library } from './library.js';

/** The native every combination fits. */
const COMPOSITE_REF = 'native.Composite';

/** Whether, and how, a parallel's output holds the combination of its branches. */
export type CombinationFit =
  | { fits: true; kind: 'composite' | 'structured'; concept: Concept; fields: Record<string, ConceptField> }
  | { fits: false; problem: 'unresolved' }
  | { fits: false; problem: 'multiplicity' }
  | { fits: false; problem: 'concept'; missing: string[]; unknown: string[]; structured: boolean };

/**
 * Check a PipeParallel's output against its branch results.
 * @param library - the library (refinements, structures)
 * @param pipe - a PipeParallel
 * @returns the fit: Composite or adequate structure; else unresolved output, a multiplicity on the output, or the
 *   required fields no branch fills (`missing`) and the results no field holds (`unknown`)
 */
export function parallelCombinationFit(library: Library, pipe: Pipe): CombinationFit {
  if (pipe.blueprint.type !== 'PipeParallel') throw new TypeError(`Pipe '${pipe.code}' is not a PipeParallel.`);
  const concept = library.findConcept(pipe.output.conceptRef, pipe.domain_code);
  if (concept === undefined) return { fits: false, problem: 'unresolved' };
  if (pipe.output.multiplicity !== 'single') return { fits: false, problem: 'multiplicity' };
  const results = pipe.blueprint.branches.flatMap((branch) => (branch.result === undefined ? [] : [branch.result]));
  const ancestry = library.ancestry(concept);
  if (ancestry.some((ancestor) => ancestor.ref === COMPOSITE_REF))
    return { fits: true, kind: 'composite', concept, fields: {} };
  const fields = ancestry.find((ancestor) => ancestor.structure !== null)?.structure ?? null;
  if (fields === null || ancestry.some((ancestor) => ancestor.isNative))
    return { fits: false, problem: 'concept', missing: [], unknown: results, structured: false };
  const missing = Object.entries(fields)
    .filter(([name, field]) => field.required && !results.includes(name))
    .map(([name]) => name);
  const unknown = results.filter((result) => !(result in fields));
  if (missing.length > 0 || unknown.length > 0)
    return { fits: false, problem: 'concept', missing, unknown, structured: true };
  return { fits: true, kind: 'structured', concept, fields };
}
