/**
 * Deterministic, schema-valid placeholder values (the mock content factory of docs/runtime.md#mock-outputs): types,
 * required
 * members, enums and consts, `$ref` into `$defs`, nullable unions, string formats, a string's first `examples` entry
 * (how a `pattern`-constrained string, such as a native Time, gets a valid value) and array bounds are honoured.
 *
 * Like a provider's completion, a mock output has a maximum size ({@link MOCK_MAX_OUTPUT_TOKENS}, docs/limits.md "Mock
 * inference"): the values of one output spend one budget of JSON characters, charged as each value is built, and an
 * array or a padded string is checked against what is left *before* it is allocated. A schema asking for more (a
 * `minItems` or `minLength` in the millions, a structure expanding into millions of members) stops with the
 * {@link LLMCompletionTruncatedError} a provider's `max_tokens` gives, having built at most the budget.
 */
import { hash } from 'node:crypto';
import { LLMCompletionTruncatedError } from '../errors/index.js';
import type { JsonSchemaObject } from './types.js';

const DEFAULT_ARRAY_LENGTH = 2;
/**
 * Deepest value built; deeper members are null. Concept structures nest at most MAX_CONCEPT_DEPTH (32) concepts, each
 * one object level and a list field one more, so no concept's value reaches it.
 */
const MAX_DEPTH = 80;

/** Most tokens one mock output holds, as a provider's maximum output (`max_tokens`) bounds a completion. */
export const MOCK_MAX_OUTPUT_TOKENS = 65_536;
/** Characters of JSON per token in the mock's estimates (its usage counts one token per 4 characters). */
const CHARS_PER_TOKEN = 4;

/** What one mock output may still spend, in characters of its JSON; the values of one output share it. */
interface OutputBudget {
  remaining: number;
}

/** Charge characters to the budget. @throws LLMCompletionTruncatedError when it does not hold them */
function spend(budget: OutputBudget, chars: number): void {
  afford(budget, chars);
  budget.remaining -= chars;
}

/** Check, before allocating, that the budget still holds `chars` characters. @throws LLMCompletionTruncatedError */
function afford(budget: OutputBudget, chars: number): void {
  if (chars > budget.remaining)
    throw new LLMCompletionTruncatedError(
      `Mock inference: the output would exceed ${MOCK_MAX_OUTPUT_TOKENS.toLocaleString('en-US')} tokens, the mock's maximum output (as a provider's max_tokens bounds a completion); ask for fewer or smaller items.`,
      { category: 'CONTENT', model: 'mock', provider: 'mock' },
    );
}

/** The first 32 bits of the SHA-256 of the seed and the value's path: what makes a placeholder value vary. */
function hashOf(seed: string, path: string): number {
  return hash('sha256', `${seed}\u0000${path}`, 'buffer').readUInt32BE(0);
}

function resolveRef(root: JsonSchemaObject, schema: JsonSchemaObject): JsonSchemaObject {
  const ref = schema['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let target: unknown = root;
  for (const segment of ref.slice(2).split('/')) target = (target as Record<string, unknown> | undefined)?.[segment];
  return (target as JsonSchemaObject | undefined) ?? {};
}

function firstType(schema: JsonSchemaObject): string | undefined {
  const type = schema['type'];
  if (Array.isArray(type)) return (type.find((candidate) => candidate !== 'null') as string | undefined) ?? 'null';
  return typeof type === 'string' ? type : undefined;
}

function stringValue(schema: JsonSchemaObject, seed: string, path: string, budget: OutputBudget): string {
  const examples = schema['examples'];
  if (Array.isArray(examples) && typeof examples[0] === 'string') return examples[0];
  switch (schema['format']) {
    case 'date':
      return '2026-01-15';
    case 'date-time':
      return '2026-01-15T12:00:00Z';
    case 'uri':
    case 'url':
      return `https://example.com/mock/${hashOf(seed, path) % 1000}`;
    default: {
      const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
      const text = `mock ${path || 'value'} ${hashOf(seed, path) % 1000}`;
      if (text.length >= minLength) return text;
      afford(budget, minLength + 2);
      return text.padEnd(minLength, 'x');
    }
  }
}

function numberValue(schema: JsonSchemaObject, hash: number, integer: boolean): number {
  const minimum = typeof schema['minimum'] === 'number' ? schema['minimum'] : 0;
  const maximum = typeof schema['maximum'] === 'number' ? schema['maximum'] : minimum + 100;
  const span = Math.max(0, maximum - minimum);
  const value = minimum + (span === 0 ? 0 : ((hash % 1000) / 1000) * span);
  return integer ? (Math.ceil(value) > maximum ? Math.floor(value) : Math.ceil(value)) : Math.round(value * 100) / 100;
}

/** The JSON characters a scalar placeholder takes (a string's quotes included; its padding is charged apart). */
function scalarChars(value: unknown): number {
  return typeof value === 'string' ? value.length + 2 : String(value).length;
}

/** Where a value is built: the root schema (for `$ref`), the seed, the output's budget. */
interface Build {
  root: JsonSchemaObject;
  seed: string;
  budget: OutputBudget;
}

/**
 * The placeholder value of a schema at a path, its JSON size charged to the output's budget (a member's key and
 * separators with it). The hash of the seed and path is computed only where a value uses it (an enum member, a
 * number, a boolean, a string), never for an object or an array.
 */
function valueFor(build: Build, raw: JsonSchemaObject, path: string, depth: number): unknown {
  const { root, seed, budget } = build;
  const schema = resolveRef(root, raw);
  if ('const' in schema) {
    spend(budget, JSON.stringify(schema['const'] ?? null).length);
    return schema['const'];
  }
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) {
    const member: unknown = schema['enum'][hashOf(seed, path) % schema['enum'].length];
    spend(budget, JSON.stringify(member ?? null).length);
    return member;
  }
  const union = (schema['anyOf'] ?? schema['oneOf']) as JsonSchemaObject[] | undefined;
  if (Array.isArray(union) && union.length > 0) {
    const nonNull = union.find((option) => resolveRef(root, option)['type'] !== 'null') ?? union[0]!;
    return valueFor(build, nonNull, path, depth);
  }
  if (depth > MAX_DEPTH) {
    spend(budget, 4);
    return null;
  }
  switch (firstType(schema) ?? (schema['properties'] ? 'object' : 'string')) {
    case 'object': {
      const properties = Object.entries((schema['properties'] ?? {}) as Record<string, JsonSchemaObject>);
      spend(budget, 2);
      return Object.fromEntries(
        properties.map(([key, property]) => {
          spend(budget, key.length + 4);
          return [key, valueFor(build, property, path ? `${path}.${key}` : key, depth + 1)];
        }),
      );
    }
    case 'array': {
      const minItems = typeof schema['minItems'] === 'number' ? schema['minItems'] : undefined;
      const maxItems = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : undefined;
      const length = minItems ?? Math.min(DEFAULT_ARRAY_LENGTH, maxItems ?? DEFAULT_ARRAY_LENGTH);
      // each item takes at least one character and a separator: refuse a length the budget cannot hold before any
      // item, or the array, is allocated
      afford(budget, 2 * Math.max(0, length));
      spend(budget, 2 + Math.max(0, length));
      const items = (schema['items'] ?? {}) as JsonSchemaObject;
      return Array.from({ length }, (_, index) => valueFor(build, items, `${path}[${index}]`, depth + 1));
    }
    case 'null':
      spend(budget, 4);
      return null;
    default: {
      const value = scalarOf(schema, seed, path, budget);
      spend(budget, scalarChars(value));
      return value;
    }
  }
}

function scalarOf(schema: JsonSchemaObject, seed: string, path: string, budget: OutputBudget): unknown {
  switch (firstType(schema)) {
    case 'integer':
      return numberValue(schema, hashOf(seed, path), true);
    case 'number':
      return numberValue(schema, hashOf(seed, path), false);
    case 'boolean':
      return hashOf(seed, path) % 2 === 0;
    default:
      return stringValue(schema, seed, path, budget);
  }
}

/**
 * Placeholder values valid against a schema, one per seed, the same for the same seed. They make one mock output:
 * together they hold at most {@link MOCK_MAX_OUTPUT_TOKENS} tokens of JSON.
 * @param schema - a JSON schema (draft 2020-12; `$ref` to `#/$defs/...` supported)
 * @param seeds - any strings; different seeds give different strings and numbers
 * @returns one value per seed, in order
 * @throws LLMCompletionTruncatedError (422) when the values would exceed the mock's maximum output; nothing larger
 *   than what is left of the budget is allocated first
 */
export function mockValuesForSchema(schema: JsonSchemaObject, seeds: readonly string[]): unknown[] {
  const budget: OutputBudget = { remaining: MOCK_MAX_OUTPUT_TOKENS * CHARS_PER_TOKEN };
  spend(budget, 2 + seeds.length);
  return seeds.map((seed) => valueFor({ root: schema, seed, budget }, schema, '', 0));
}

/**
 * A placeholder value valid against a schema, the same for the same seed: one mock output.
 * @param schema - a JSON schema (draft 2020-12; `$ref` to `#/$defs/...` supported)
 * @param seed - any string; different seeds give different strings and numbers
 * @throws LLMCompletionTruncatedError (422) when the value would exceed the mock's maximum output
 */
export function mockValueForSchema(schema: JsonSchemaObject, seed: string): unknown {
  return mockValuesForSchema(schema, [seed])[0];
}
