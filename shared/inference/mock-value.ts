/**
 * Deterministic, schema-valid placeholder values (the mock content factory of RUNTIME.md §4.2): types, required
 * members, enums and consts, `$ref` into `$defs`, nullable unions, string formats, a string's first `examples` entry
 * (how a `pattern`-constrained string, such as a native Time, gets a valid value) and array bounds are honoured.
 */
import { hash } from 'node:crypto';
import type { JsonSchemaObject } from './types.js';

const DEFAULT_ARRAY_LENGTH = 2;
const MAX_DEPTH = 12;

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

function stringValue(schema: JsonSchemaObject, seed: string, path: string): string {
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
      return text.length >= minLength ? text : text.padEnd(minLength, 'x');
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

/**
 * The placeholder value of a schema at a path. The hash of the seed and path is computed only where a value uses it
 * (an enum member, a number, a boolean, a string), never for an object or an array.
 */
function valueFor(root: JsonSchemaObject, raw: JsonSchemaObject, seed: string, path: string, depth: number): unknown {
  const schema = resolveRef(root, raw);
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0)
    return schema['enum'][hashOf(seed, path) % schema['enum'].length];
  const union = (schema['anyOf'] ?? schema['oneOf']) as JsonSchemaObject[] | undefined;
  if (Array.isArray(union) && union.length > 0) {
    const nonNull = union.find((option) => resolveRef(root, option)['type'] !== 'null') ?? union[0]!;
    return valueFor(root, nonNull, seed, path, depth);
  }
  if (depth > MAX_DEPTH) return null;
  switch (firstType(schema) ?? (schema['properties'] ? 'object' : 'string')) {
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, JsonSchemaObject>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [
          key,
          valueFor(root, property, seed, path ? `${path}.${key}` : key, depth + 1),
        ]),
      );
    }
    case 'array': {
      const minItems = typeof schema['minItems'] === 'number' ? schema['minItems'] : undefined;
      const maxItems = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : undefined;
      const length = minItems ?? Math.min(DEFAULT_ARRAY_LENGTH, maxItems ?? DEFAULT_ARRAY_LENGTH);
      const items = (schema['items'] ?? {}) as JsonSchemaObject;
      return Array.from({ length }, (_, index) => valueFor(root, items, seed, `${path}[${index}]`, depth + 1));
    }
    case 'integer':
      return numberValue(schema, hashOf(seed, path), true);
    case 'number':
      return numberValue(schema, hashOf(seed, path), false);
    case 'boolean':
      return hashOf(seed, path) % 2 === 0;
    case 'null':
      return null;
    default:
      return stringValue(schema, seed, path);
  }
}

/**
 * A placeholder value valid against a schema, the same for the same seed.
 * @param schema - a JSON schema (draft 2020-12; `$ref` to `#/$defs/...` supported)
 * @param seed - any string; different seeds give different strings and numbers
 */
export function mockValueForSchema(schema: JsonSchemaObject, seed: string): unknown {
  return valueFor(schema, schema, seed, '', 0);
}
