/**
 * The embedded bundle schema (`mthds_schema.json`, a verbatim copy of ../shared/reference/mthds_schema.json, draft-04)
 * compiled for editor diagnostics. Three transformations are applied in memory, none of which changes what a TOML
 * document may contain:
 * - a `{"type": "null"}` alternative is dropped (TOML has no null), so an optional field reports only its own errors;
 * - a pipe's `type` is the discriminator of the pipe union: a known type reports that blueprint's errors only, an
 * unknown
 *   or missing one a single error (the runtime requires `type` too, docs/rules.md#declarations-s2);
 * - the contract-only `PipeSignature` (no `type`; docs/pipes.md#pipesignature) and `PipeStructure`
 * (docs/pipes.md#pipestructure, in
 *   the pinned 0.16 OpenAPI but not in this schema) are more members of the union, derived from the runtime's
 *   blueprints; a PipeSequence step may also be a binding step `{from, result}` (docs/data-flow.md#binding-steps);
 * - what the language accepts since this schema was written is added from the runtime's blueprints, so lint agrees
 *   with validate: the members a pipe blueprint lacks (PipeLLM `templating_style`, PipeImgGen `size`, PipeExtract
 *   `render_js` and `include_raw_html`, 0.16), `hints` on concepts and structure fields and the field types
 *   `datetime` and `time` (docs/concepts.md#structure-fields); a structure field's unknown keys are refused, as the
 * runtime does;
 *   a pipe's `inputs` may hold expanded slots `{concept, hints}` (docs/concepts.md#structure-fields), with no other
 * key.
 *
 * @see docs/api.md#post-v1lint, docs/pipes.md#pipesignature, docs/formatting.md
 */
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import ajvDraft04 from 'ajv-draft-04';
import { z } from 'zod';
import { CONCEPT_BLUEPRINT, CONCEPT_FIELD } from '../mthds/parse/concept-blueprint.js';
import { PIPE_SCHEMAS } from '../mthds/parse/pipe-blueprints.js';
import { pipeTableKind } from '../mthds/parse/pipe-table-kind.js';
import { BINDING_STEP } from '../mthds/parse/sequence-steps.js';

type JsonObject = Record<string, unknown>;

const REFERENCE = JSON.parse(readFileSync(new URL('./mthds_schema.json', import.meta.url), 'utf8')) as JsonObject;

/**
 * A pipe blueprint the reference schema lacks, as JSON Schema derived from the runtime's blueprint (what a TOML table
 * may hold): the contract-only signature, PipeStructure (in the pinned 0.16 OpenAPI, not in `mthds_schema.json`) and
 * PipeJudge (newer) and PipeDocGen (docs/document-generation.md, newer than both).
 */
function derivedBlueprint(type: 'PipeSignature' | 'PipeStructure' | 'PipeJudge' | 'PipeDocGen'): JsonObject {
  return derivedSchema(`${type}Blueprint`, PIPE_SCHEMAS[type]);
}

/** A zod schema of the runtime's blueprints as draft-4 JSON Schema titled `title`. */
function derivedSchema(title: string, zodSchema: z.ZodType): JsonObject {
  const schema: JsonObject = { title, ...z.toJSONSchema(zodSchema, { target: 'draft-4', io: 'input' }) };
  delete schema['$schema'];
  return schema;
}

/**
 * Add to a reference definition the properties the runtime's blueprint has and it lacks.
 * @param definition - a definition of the reference schema (modified in place)
 * @param runtime - the runtime's zod schema of the same blueprint
 */
function addMissingProperties(definition: JsonObject, runtime: z.ZodType): void {
  const properties = definition['properties'] as Record<string, unknown>;
  const derived = derivedSchema('', runtime)['properties'] as Record<string, unknown>;
  for (const [key, schema] of Object.entries(derived)) if (!(key in properties)) properties[key] = schema;
}

/**
 * Let a reference pipe definition's `inputs` hold expanded slots (`name = { concept = "X?", hints = {…} }`,
 * docs/concepts.md#structure-fields), as the runtime's blueprint does: its `inputs` schema replaces the reference's map
 * of strings.
 * @param definition - a pipe definition of the reference schema (modified in place)
 * @param runtime - the runtime's zod schema of the same blueprint
 */
function withExpandedSlots(definition: JsonObject, runtime: z.ZodType): void {
  const properties = definition['properties'] as Record<string, unknown>;
  const derived = derivedSchema('', runtime)['properties'] as Record<string, unknown>;
  if ('inputs' in properties && derived['inputs'] !== undefined) properties['inputs'] = derived['inputs'];
}

/** The reference's concept definitions brought to the runtime's: `hints`, the newer field types, closed fields. */
function withNewerConceptKeys(definitions: Record<string, JsonObject>): void {
  addMissingProperties(definitions['ConceptBlueprint']!, CONCEPT_BLUEPRINT);
  addMissingProperties(definitions['ConceptStructureBlueprint']!, CONCEPT_FIELD);
  definitions['ConceptStructureBlueprint']!['additionalProperties'] = false;
  const fieldType = (
    derivedSchema('', CONCEPT_FIELD)['properties'] as Record<string, { anyOf: { enum?: string[] }[] }>
  )['type']!;
  const written = definitions['ConceptStructureBlueprintFieldType']!['enum'] as string[];
  const added = fieldType.anyOf.find((option) => option.enum)!.enum!.filter((value) => !written.includes(value));
  definitions['ConceptStructureBlueprintFieldType']!['enum'] = [...written, ...added];
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function withoutNullAlternatives(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNullAlternatives);
  if (!isObject(node)) return node;
  const copy: JsonObject = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, withoutNullAlternatives(value)]),
  );
  const anyOf = copy['anyOf'];
  if (Array.isArray(anyOf)) {
    const kept = anyOf.filter(
      (branch) => !(isObject(branch) && branch['type'] === 'null' && Object.keys(branch).length === 1),
    );
    delete copy['anyOf'];
    if (kept.length === 1) copy['allOf'] = kept;
    else copy['anyOf'] = kept;
  }
  return copy;
}

/** The reference schema with the pipe union made discriminated and the signature added. */
function editorSchema(reference: JsonObject): JsonObject {
  const schema = structuredClone(reference);
  const definitions = schema['definitions'] as Record<string, JsonObject>;
  const pipes = (
    (schema['properties'] as JsonObject)['pipe'] as { anyOf: [{ additionalProperties: { oneOf: { $ref: string }[] } }] }
  ).anyOf[0].additionalProperties;
  for (const type of ['PipeStructure', 'PipeJudge', 'PipeDocGen', 'PipeSignature'] as const) {
    if (definitions[`${type}Blueprint`] !== undefined) continue;
    definitions[`${type}Blueprint`] = derivedBlueprint(type);
    pipes.oneOf.push({ $ref: `#/definitions/${type}Blueprint` });
  }
  withNewerConceptKeys(definitions);
  for (const member of pipes.oneOf) {
    const name = member.$ref.replace('#/definitions/', '');
    const definition = definitions[name]!;
    const type = name.replace(/Blueprint$/, '');
    if (type in PIPE_SCHEMAS) {
      const runtime = PIPE_SCHEMAS[type as keyof typeof PIPE_SCHEMAS];
      addMissingProperties(definition, runtime);
      withExpandedSlots(definition, runtime);
    }
    const required = (definition['required'] as string[] | undefined) ?? [];
    definition['required'] = ['type', ...required.filter((key) => key !== 'type')];
  }
  Object.assign(pipes, { type: 'object', discriminator: { propertyName: 'type' } });
  const steps = (definitions['PipeSequenceBlueprint']!['properties'] as Record<string, JsonObject>)['steps']!;
  steps['items'] = {
    anyOf: [structuredClone(definitions['SubPipeBlueprint']), derivedSchema('BindingStepBlueprint', BINDING_STEP)],
  };
  return withoutNullAlternatives(schema) as JsonObject;
}

let compiled: ValidateFunction | undefined;

/**
 * The compiled validator (compiled once, on first use).
 * @returns an ajv validate function reporting all errors (`instancePath` is a JSON pointer into the bundle data)
 */
export function bundleSchemaValidator(): ValidateFunction {
  if (!compiled) {
    const ajv = new ajvDraft04.default({ allErrors: true, strict: false, discriminator: true });
    compiled = ajv.compile(editorSchema(REFERENCE));
  }
  return compiled;
}

/**
 * The bundle data as the schema sees it: a signature table (no `type`, only the signature keys;
 * docs/pipes.md#pipesignature)
 * is tagged `PipeSignature`, the union's internal tag for it. A written `type = "PipeSignature"` (the retired tag) is
 * checked as a signature too; the caller reports the tag itself.
 * @param data - the parsed TOML document (JSON values)
 * @returns a copy with the signature tables tagged; the input is not modified
 */
export function withSignatureTypes(data: JsonObject): JsonObject {
  const pipes = data['pipe'];
  if (!isObject(pipes)) return data;
  const typed = Object.fromEntries(
    Object.entries(pipes).map(([code, table]) => [
      code,
      isObject(table) && pipeTableKind(table).kind === 'signature' ? { ...table, type: 'PipeSignature' } : table,
    ]),
  );
  return { ...data, pipe: typed };
}

/** An error of the compiled schema. */
export type SchemaError = ErrorObject;
