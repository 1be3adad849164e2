/**
 * The output representation of `POST /v1/build/output` (spec §4.9; docs/codegen.md#post-v1buildoutput): the pipe's
 * declared output
 * as `{concept, content}` where content is the JSON schema (`schema`) or a placeholder value (`json`), or as a Python
 * constructor expression of the `python-structures` classes (`python`). A list output is an array (of N items for
 * `[N]`). An output of `native.Anything` / `native.Dynamic` takes the concept its controller fixes (the last step
 * of a sequence, the common output of a condition's outcomes); with none, there is no shape to render.
 */
import { ValidationError } from '../errors/index.js';
import { type Concept, isBindingStep, type Library, type Multiplicity, type Pipe } from '../mthds/index.js';
import { placeholderContent, pythonConstructor, pythonRepeated, repeatByMultiplicity } from './placeholder.js';
import type { TypeSet } from './type-model.js';

/** The output formats. */
export type OutputFormat = 'schema' | 'json' | 'python';

const OPEN_REFS = new Set(['native.Anything', 'native.Dynamic']);

function fixedConcept(library: Library, pipe: Pipe, seen: Set<string>): Concept | undefined {
  const declared = library.resolveConcept(pipe.output.conceptRef, pipe.domain_code);
  if (!OPEN_REFS.has(declared.ref)) return declared;
  if (seen.has(pipe.ref)) return undefined;
  seen.add(pipe.ref);
  const blueprint = pipe.blueprint;
  const targets =
    blueprint.type === 'PipeSequence'
      ? blueprint.steps.slice(-1).flatMap((step) => (isBindingStep(step) ? [] : [step.pipe]))
      : blueprint.type === 'PipeCondition'
        ? [...Object.values(blueprint.outcomes), blueprint.default_outcome].filter(
            (ref) => ref !== 'fail' && ref !== 'continue',
          )
        : [];
  const concepts = targets.map((ref) => {
    const target = library.findPipe(ref, pipe.domain_code);
    return target ? fixedConcept(library, target, seen) : undefined;
  });
  const first = concepts[0];
  return first && concepts.every((concept) => concept?.ref === first.ref) ? first : undefined;
}

function schemaOf(library: Library, concept: Concept, multiplicity: Multiplicity): Record<string, unknown> {
  const item = library.contentSchema(concept);
  if (multiplicity === 'single') return item;
  const { $defs, $schema, ...body } = item;
  const list: Record<string, unknown> = { $schema, type: 'array', items: body };
  if (typeof multiplicity === 'number') Object.assign(list, { minItems: multiplicity, maxItems: multiplicity });
  if ($defs !== undefined) list['$defs'] = $defs;
  return list;
}

/**
 * The concept whose shape a pipe's output has.
 * @param library - the closure's library
 * @param pipe - the pipe
 * @throws ValidationError (422) for an `Anything` / `Dynamic` output no step fixes
 */
export function outputConcept(library: Library, pipe: Pipe): Concept {
  const concept = fixedConcept(library, pipe, new Set());
  if (!concept) {
    throw new ValidationError(
      `Cannot render the output representation of pipe '${pipe.ref}': its output is ${pipe.output.raw}, which has no determinable shape (no step of the pipe fixes one concept).`,
    );
  }
  return concept;
}

/**
 * Render a pipe's output.
 * @param library - the closure's library
 * @param types - its type model
 * @param pipe - the selected pipe
 * @param format - `schema`, `json` or `python`
 * @returns an object (`schema`, `json`) or Python source (`python`)
 * @throws ValidationError (422) for an output with no determinable shape
 */
export function outputRepresentation(
  library: Library,
  types: TypeSet,
  pipe: Pipe,
  format: OutputFormat,
): Record<string, unknown> | string {
  const concept = outputConcept(library, pipe);
  const { multiplicity } = pipe.output;
  if (format === 'schema') return { concept: concept.ref, content: schemaOf(library, concept, multiplicity) };
  const content = placeholderContent(types, concept.ref);
  if (format === 'json') return { concept: concept.ref, content: repeatByMultiplicity(multiplicity, content) };
  const expression = pythonConstructor(types, concept.ref, content, new Set());
  return `${pythonRepeated(multiplicity, expression)}\n`;
}
