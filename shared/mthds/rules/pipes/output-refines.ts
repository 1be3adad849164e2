/**
 * Whether a pipe's declared output concept is a given native or refines it (for the operator output rules).
 * @see docs/concepts.md#refinement-and-compatibility
 */
import type { Pipe } from '../../library/concept.js';
import type { MthdsLibrary } from '../../library/mthds-library.js';

/**
 * @param library - the library
 * @param pipe - the pipe
 * @param ref - a qualified concept ref, e.g. `native.Page`
 * @returns true or false, or undefined when the output concept does not resolve (reported by the S5 rules)
 */
export function outputRefines(library: MthdsLibrary, pipe: Pipe, ref: string): boolean | undefined {
  const output = library.findConcept(pipe.output.conceptRef, pipe.domain_code);
  return output === undefined ? undefined : library.ancestry(output).some((concept) => concept.ref === ref);
}
