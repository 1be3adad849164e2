/**
 * The concept a pipe's output takes: the declared one, or for `native.Dynamic` the run's
 * `dynamic_output_concept_ref` (Text when none is given). docs/runtime.md#generation-mode.
 */
import type { Concept, Library } from '../mthds/index.js';
import type { PipeJob } from './pipe-job.js';

const DYNAMIC_REF = 'native.Dynamic';

/**
 * Resolve the output concept of a job.
 * @throws ConceptNotFoundError, ConceptAmbiguityError (422) for a bad `dynamic_output_concept_ref`
 */
export function outputConceptOf(job: PipeJob, library: Library): Concept {
  const declared = library.resolveConcept(job.pipe.output.conceptRef, job.pipe.domain_code);
  if (declared.ref !== DYNAMIC_REF) return declared;
  return library.resolveConcept(job.params.dynamicOutputConceptRef ?? 'native.Text', job.pipe.domain_code);
}
