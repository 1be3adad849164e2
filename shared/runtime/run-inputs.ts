/**
 * The input rules of a run, shared by the run itself and the check a host makes before it accepts one: the inputs bind
 * to a working memory (each content valid against its concept and the entry pipe's declaration), and every input the
 * pipe declares is present. `/v1/start` and queued `/v1/execute` check them before anything is queued, so a run the
 * blocking route would refuse is refused up front with the same problem document (spec §4.3–4.4).
 */
import { PipeInputError } from '../errors/index.js';
import type { Library, Pipe } from '../mthds/index.js';
import { validatorFor } from './content-validator.js';
import type { IdSource } from './ports.js';
import { buildWorkingMemory } from './stuff-factory.js';
import type { WorkingMemory } from './working-memory.js';

/** Stuff codes of a check's throwaway memory: never seen by anyone, and drawing none from the run's own source. */
const CHECK_IDS: IdSource = { next: () => 'input-check' };

/**
 * Check that a pipe's declared inputs are all in a working memory: an optional (`?`) input may be missing, and so may
 * one recorded absent (the presence gate has dealt with it:
 * docs/language.md#optionality-presence-markers-and-absences).
 * @param pipe - the pipe about to run
 * @param memory - its working memory
 * @throws PipeInputError (422) naming the missing inputs and the available ones
 */
export function checkInputsPresent(pipe: Pipe, memory: WorkingMemory): void {
  const missing = pipe.inputs
    .filter((input) => input.presence !== 'optional')
    .map((input) => input.name)
    .filter((name) => {
      const root = name.split('.')[0] ?? name;
      return !memory.has(root) && memory.absence(root) === undefined;
    });
  if (missing.length > 0) {
    throw new PipeInputError(
      `Pipe '${pipe.code}' is missing required inputs: ${missing.join(', ')} (available: ${memory.names().join(', ') || 'none'}).`,
    );
  }
}

/**
 * Check a run's inputs against its entry pipe, as the run will: bind them, then check the declared ones are present.
 * @param library - the run's validated library
 * @param pipe - its entry pipe
 * @param inputs - the request's `inputs`, as received
 * @throws StuffFactoryError, ConceptNotFoundError, ConceptAmbiguityError, PipeInputError (all 422)
 * @see spec §2.3, docs/runtime.md#initial-working-memory
 */
export function checkRunInputs(library: Library, pipe: Pipe, inputs: unknown): void {
  const memory = buildWorkingMemory(inputs, { library, pipe, validator: validatorFor(library), ids: CHECK_IDS });
  checkInputsPresent(pipe, memory);
}
