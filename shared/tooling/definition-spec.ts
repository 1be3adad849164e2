/**
 * Definition specs, the bodies of the agent routes `POST /v1/build/concept` and `POST /v1/build/pipe-spec` (the
 * reference's 0.16 `BuildConceptRequest` / `BuildPipeSpecRequest`; docs/codegen.md#definition-specs): one concept or
 * pipe table
 * of a `.mthds` file given as JSON, with its code beside its members. A spec is checked against the blueprint schemas
 * (the schema part of stage S2, as `/v1/validate` checks a bundle) and written as TOML ready to paste into a bundle.
 *
 * Its references (concepts, pipes) and data flow are not checked: they live in other definitions of the bundle; ask
 * `/v1/validate` for those. The aliases agents commonly write, which the reference accepts, are read as their canonical
 * member when that member is absent (and dropped when it is present).
 *
 * @see docs/concepts.md, docs/language.md, docs/rules.md#declarations-s2
 */
import { ValidationError } from '../errors/index.js';
import { MESSAGES } from '../mthds/messages.js';
import { checkBlueprint } from '../mthds/parse/check-blueprint.js';
import type { ConceptBlueprint } from '../mthds/parse/concept-blueprint.js';
import { PIPE_SCHEMAS, type PipeType } from '../mthds/parse/pipe-blueprints.js';
import { CONCEPT_CODE, PIPE_CODE, toPascalCase, toSnakeCase } from '../mthds/references.js';
import { definitionToml } from './definition-toml.js';

/** Aliases of `concept_code`, first found first (the reference's `parse_concept_spec`). */
const CONCEPT_CODE_ALIASES = ['the_concept_code', 'code', 'name', 'concept_name', 'concept_ref'];
/** Aliases of a pipe's code at the top of a spec, and of `pipe` in a step or branch (the reference's `pipe_ops`). */
const PIPE_CODE_ALIASES = ['pipe_code', 'pipe', 'the_pipe_code', 'code', 'name', 'pipe_name', 'pipe_ref'];
/** Aliases of `output`. */
const OUTPUT_ALIASES = ['output_concept', 'output_type'];
/** Aliases of the PipeLLM `prompt`, and of the PipeCondition `expression`. */
const PROMPT_ALIASES = ['prompt_template'];
const EXPRESSION_ALIASES = ['jinja2_expression_template'];

/**
 * The pipe types a spec may name: the eleven of the reference's `PipeType`, and `PipeSignature` for a contract-only
 * pipe.
 */
export const SPEC_PIPE_TYPES = Object.keys(PIPE_SCHEMAS) as PipeType[];

/** A concept spec as TOML. */
export interface ConceptDefinition {
  conceptCode: string;
  toml: string;
}

/** A pipe spec as TOML. */
export interface PipeDefinition {
  pipeCode: string;
  pipeType: PipeType;
  toml: string;
}

/** Move the first present alias to `canonical` when it is absent; drop the other aliases. */
function promote(table: Record<string, unknown>, canonical: string, aliases: readonly string[]): void {
  for (const alias of aliases) {
    if (alias === canonical || !Object.hasOwn(table, alias)) continue;
    if (!Object.hasOwn(table, canonical)) table[canonical] = table[alias];
    delete table[alias];
  }
}

function takeCode(table: Record<string, unknown>, canonical: string, what: 'concept' | 'pipe'): string {
  const code = table[canonical];
  delete table[canonical];
  if (typeof code !== 'string' || code === '')
    throw new ValidationError(`Invalid ${what} spec: it names no ${what} code; set \`${canonical}\` (a string).`);
  return code;
}

function refuse(what: 'concept' | 'pipe', problems: readonly string[]): never {
  throw new ValidationError(`Invalid ${what} spec: ${problems.join(' ')}`);
}

/** An output written as an object (`{concept_ref}`, `{type}` or one entry), as agents write it like an input. */
function outputRef(output: unknown): unknown {
  if (output === null || typeof output !== 'object' || Array.isArray(output)) return output;
  const members = output as Record<string, unknown>;
  if ('concept_ref' in members) return members['concept_ref'];
  if ('type' in members) return members['type'];
  const values = Object.values(members);
  return values.length === 1 ? values[0] : output;
}

function subPipes(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((entry: unknown) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry;
    const step = { ...(entry as Record<string, unknown>) };
    promote(step, 'pipe', PIPE_CODE_ALIASES);
    return step;
  });
}

/**
 * A concept spec as TOML.
 * @param spec - the definition: `concept_code` (or an alias) and the members of a `[concept.<Code>]` table
 *   (`description`, `structure`, `refines`)
 * @returns the concept code and its `[concept.<Code>]` TOML
 * @throws ValidationError (422) when the code is missing or not PascalCase, or a member breaks the blueprint schema
 * @example conceptDefinition({ concept_code: 'Invoice', description: 'An invoice', structure: { total: 'The total' } })
 */
export function conceptDefinition(spec: Readonly<Record<string, unknown>>): ConceptDefinition {
  const table = { ...spec };
  promote(table, 'concept_code', CONCEPT_CODE_ALIASES);
  const code = takeCode(table, 'concept_code', 'concept');
  if (!CONCEPT_CODE.test(code))
    refuse('concept', [MESSAGES.concept_code_casing({ code, suggestion: toPascalCase(code) })]);
  const checked = checkBlueprint({ domain: 'spec', concept: { [code]: table } }, null);
  if (!checked.blueprint)
    refuse(
      'concept',
      checked.items.map((item) => item.message),
    );
  const concept = checked.blueprint.concept[code] as ConceptBlueprint;
  const ordered = { description: concept.description, refines: concept.refines, structure: concept.structure };
  return { conceptCode: code, toml: definitionToml('concept', code, ordered, 'structure') };
}

/**
 * A pipe spec as TOML.
 * @param pipeType - the pipe type: one of {@link SPEC_PIPE_TYPES} (a `type` in the spec is replaced by it)
 * @param spec - the definition: `pipe_code` (or an alias) and the members of a `[pipe.<code>]` table
 * @returns the pipe code, its type and its `[pipe.<code>]` TOML (a `PipeSignature` is written without `type`, as a
 *   contract-only pipe is written)
 * @throws ValidationError (422) for an unknown pipe type, a missing or non-snake_case code, or a member that breaks
 *   the blueprint schema of the type
 */
export function pipeDefinition(pipeType: string, spec: Readonly<Record<string, unknown>>): PipeDefinition {
  if (!(SPEC_PIPE_TYPES as string[]).includes(pipeType))
    refuse('pipe', [`Invalid pipe type '${pipeType}'. Must be one of: ${SPEC_PIPE_TYPES.join(', ')}.`]);
  const type = pipeType as PipeType;
  const table: Record<string, unknown> = { ...spec };
  promote(table, 'pipe_code', PIPE_CODE_ALIASES);
  const code = takeCode(table, 'pipe_code', 'pipe');
  if (!PIPE_CODE.test(code)) refuse('pipe', [MESSAGES.pipe_code_casing({ code, suggestion: toSnakeCase(code) })]);
  promote(table, 'output', OUTPUT_ALIASES);
  table['output'] = outputRef(table['output']);
  promote(table, 'prompt', PROMPT_ALIASES);
  promote(table, 'expression', EXPRESSION_ALIASES);
  for (const list of ['steps', 'branches']) if (list in table) table[list] = subPipes(table[list]);
  if (type === 'PipeSignature') delete table['type'];
  else table['type'] = type;
  const checked = checkBlueprint({ domain: 'spec', pipe: { [code]: table } }, null);
  if (!checked.blueprint)
    refuse(
      'pipe',
      checked.items.map((item) => item.message),
    );
  const { type: written, ...members } = checked.blueprint.pipe[code] as Record<string, unknown>;
  const ordered = type === 'PipeSignature' ? members : { type: written, ...members };
  return { pipeCode: code, pipeType: type, toml: definitionToml('pipe', code, ordered) };
}
