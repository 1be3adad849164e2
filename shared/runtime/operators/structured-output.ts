/**
 * Structured output of the LLM operators (PipeLLM object mode, PipeStructure): one object valid against the output
 * concept's JSON schema, or `{items: [...]}` for `X[]` / `X[N]` outputs, re-asked until valid by the inference port.
 *
 * @see docs/runtime.md#pipellm, docs/pipes.md#pipestructure
 */
import type { Concept, LLMSetting, ModelReference, Multiplicity } from '../../mthds/index.js';
import type { RunEnvironment } from '../pipe-job.js';
import type { LlmRequest } from '../ports.js';
import type { ItemContent, StuffContent } from '../stuff.js';

/** The system prompt of every structuring call (docs/runtime.md#structuring-method). */
export const STRUCTURING_SYSTEM_PROMPT =
  'You are a data modeling expert specialized in extracting structure from text.';

/** The model reference and settings of one LLM call. */
export interface ModelChoice {
  modelRef?: string;
  temperature?: number;
  maxTokens?: number;
}

/**
 * Read an LLM `model` field (a reference string, an inline LLM setting, or a `{kind, name, raw}` reference).
 * @param model - the field as written, or undefined (the deck's defaults apply)
 * @returns the reference and, for an inline setting, its temperature and token limit
 */
export function modelChoice(model: string | LLMSetting | ModelReference | undefined): ModelChoice {
  if (model === undefined) return {};
  if (typeof model === 'string') return { modelRef: model };
  if (!('temperature' in model)) return { modelRef: model.raw };
  const choice: ModelChoice = { modelRef: model.model, temperature: model.temperature };
  if (typeof model.max_tokens === 'number') choice.maxTokens = model.max_tokens;
  return choice;
}

function listSchema(itemSchema: Record<string, unknown>, count: number | null): Record<string, unknown> {
  const { $defs, $schema: _ignored, ...item } = itemSchema;
  const items: Record<string, unknown> = { type: 'array', items: item };
  if (count !== null) Object.assign(items, { minItems: count, maxItems: count });
  const schema: Record<string, unknown> = {
    type: 'object',
    properties: { items },
    required: ['items'],
    additionalProperties: false,
  };
  if ($defs !== undefined) schema['$defs'] = $defs;
  return schema;
}

function listProblems(environment: RunEnvironment, concept: Concept, count: number | null, value: unknown): string[] {
  const items = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['items'] : undefined;
  if (!Array.isArray(items)) return ['(root) must be an object with an "items" array'];
  const problems =
    count !== null && items.length !== count ? [`/items must hold exactly ${count} items, not ${items.length}`] : [];
  items.forEach((item, index) => {
    for (const problem of environment.validator.problems(concept, item))
      problems.push(`/items/${index}${problem.replace(/^\(root\)/, '')}`);
  });
  return problems;
}

/**
 * Ask the inference port for structured content of a concept: schema `<Code>` for one item, `ListOf<Code>` (an
 * `{items}` object, exactly N items for `X[N]`) for a list.
 * @param environment - the run's environment (inference port, content validator)
 * @param concept - the output concept
 * @param multiplicity - the resolved output multiplicity
 * @param request - the call: pipe code, model choice, prompts, attachments, abort signal
 * @returns the content, valid against the concept's schema
 * @throws the inference port's errors (LLMCompletion*, LLMStructuredOutputError)
 */
export async function generateStructured(
  environment: RunEnvironment,
  concept: Concept,
  multiplicity: Multiplicity,
  request: LlmRequest,
): Promise<StuffContent> {
  const { inference } = environment.deps;
  const itemSchema = environment.validator.schemaOf(concept);
  if (multiplicity === 'single') {
    const { object } = await inference.generateObject({
      ...request,
      schemaName: concept.code,
      jsonSchema: itemSchema,
      validate: (value) => environment.validator.problems(concept, value),
    });
    return { kind: 'item', item: object as ItemContent };
  }
  const count = typeof multiplicity === 'number' ? multiplicity : null;
  const { object } = await inference.generateObject({
    ...request,
    schemaName: `ListOf${concept.code}`,
    jsonSchema: listSchema(itemSchema, count),
    validate: (value) => listProblems(environment, concept, count, value),
  });
  return { kind: 'list', items: (object as { items: ItemContent[] }).items };
}
