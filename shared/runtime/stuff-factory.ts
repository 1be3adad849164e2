/**
 * Building the initial working memory from a run's `inputs` (spec §2.3, docs/runtime.md#initial-working-memory).
 *
 * Accepted forms per input name: a string (Text), a list of strings (Text[]), an explicit `{concept, content}`, a list
 * of explicit stuffs, an ISO date / date-time / time string (or a list of them) for an input declared as a native
 * `Date` or `Time` or a refinement of one (docs/concepts.md#native-concepts, `temporal-content.ts`), a bare number (or
 * list of
 * numbers) for a `Number` input and a bare boolean (or list) for a `YesNo` input (smart inputs,
 * docs/namespaces.md#cross-package-references), a content object or a list of content objects (typed by the entry
 * pipe's declared input). The
 * whole `inputs` may also be a working memory `{root, aliases}`. Every content is validated against its concept, and
 * every stuff against the entry pipe's declared input (concept compatibility and multiplicity). Each value is bound
 * by `input-binder.ts`; this module assembles the memory and records the optional inputs left out.
 */
import { StuffFactoryError } from '../errors/index.js';
import { InputBinder, isObject, type JsonObject, type StuffFactoryContext } from './input-binder.js';
import { WorkingMemory } from './working-memory.js';

function isWorkingMemoryForm(inputs: JsonObject): boolean {
  const keys = Object.keys(inputs);
  return (
    keys.length === 2 &&
    keys.includes('root') &&
    keys.includes('aliases') &&
    isObject(inputs['root']) &&
    isObject(inputs['aliases'])
  );
}

/**
 * Build the initial working memory of a run.
 * @param inputs - the request's `inputs` (object, working-memory form, or null/undefined for none)
 * @param context - library, entry pipe, validator and id source
 * @returns a fresh working memory holding one stuff per input, and a `not_provided` absence per optional (`?`) input
 *   of the entry pipe left out (docs/language.md#optionality-presence-markers-and-absences)
 * @throws StuffFactoryError, ConceptNotFoundError, ConceptAmbiguityError (all 422) naming the input and the fix
 * @see spec §2.3, docs/runtime.md#initial-working-memory
 */
export function buildWorkingMemory(inputs: unknown, context: StuffFactoryContext): WorkingMemory {
  return withOmittedOptionals(bindInputs(inputs, context), context);
}

function bindInputs(inputs: unknown, context: StuffFactoryContext): WorkingMemory {
  if (inputs === null || inputs === undefined) return new WorkingMemory();
  if (!isObject(inputs))
    throw new StuffFactoryError('inputs must be a JSON object mapping input names to values, or {root, aliases}.');
  const binder = new InputBinder(context);
  if (isWorkingMemoryForm(inputs)) return binder.bindWorkingMemory(inputs as { root: JsonObject; aliases: JsonObject });
  const memory = new WorkingMemory();
  for (const [name, value] of Object.entries(inputs)) {
    memory.addNewStuff(name, binder.checkAgainstDeclaration(binder.bind(name, value)));
  }
  return memory;
}

/** Record a `not_provided` absence for each optional (`?`) input of the entry pipe the caller left out. */
function withOmittedOptionals(memory: WorkingMemory, context: StuffFactoryContext): WorkingMemory {
  for (const input of context.pipe.inputs) {
    const name = input.name.split('.')[0] ?? input.name;
    if (input.presence !== 'optional' || memory.has(name)) continue;
    memory.recordAbsence({
      variableName: name,
      kind: 'not_provided',
      reason: `the caller did not provide the optional input '${name}'`,
      producingPipe: null,
      upstream: null,
    });
  }
  return memory;
}
