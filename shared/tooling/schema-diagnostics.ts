/**
 * Schema diagnostics of `/v1/lint`: the bundle data checked against the embedded bundle schema, each error placed on
 * the key or value it is about.
 *
 * @see docs/api.md#post-v1lint, docs/formatting.md (what lint checks: types, enums, unknown keys, required keys)
 */

import { MESSAGES } from '../mthds/messages.js';
import { SCHEMA_PIPE_TYPES } from '../mthds/parse/pipe-blueprints.js';
import { pipeTableKind } from '../mthds/parse/pipe-table-kind.js';
import { bundleSchemaValidator, type SchemaError, withSignatureTypes } from './bundle-schema.js';
import type { Diagnostic } from './diagnostic.js';
import { reduceSchemaErrors } from './reduce-schema-errors.js';
import type { SourceText } from './source-text.js';
import { jsonPointer, type WrittenAt } from './toml-key-paths.js';

type Segment = string | number;

/** What an error is about: a path, and whether its key or its value should be highlighted. */
interface Subject {
  path: Segment[];
  mark: 'key' | 'value';
  message: string;
}

function segmentsOf(pointer: string): Segment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

function dotted(path: readonly Segment[]): string {
  return path.reduce<string>(
    (text, segment) =>
      typeof segment === 'number' ? `${text}[${segment}]` : text === '' ? segment : `${text}.${segment}`,
    '',
  );
}

function where(path: readonly Segment[]): string {
  return path.length === 0 ? 'the bundle' : `'${dotted(path)}'`;
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function valueAt(data: unknown, path: readonly Segment[]): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** The subjects of the retired `type = "PipeSignature"` tags (docs/pipes.md#pipesignature), placed on the value. */
function retiredTagSubjects(data: Record<string, unknown>): Subject[] {
  const pipes = data['pipe'];
  if (pipes === null || typeof pipes !== 'object' || Array.isArray(pipes)) return [];
  return Object.entries(pipes as Record<string, unknown>).flatMap(([code, table]) =>
    table !== null &&
    typeof table === 'object' &&
    pipeTableKind(table as Record<string, unknown>).kind === 'retired_signature_tag'
      ? [
          {
            path: ['pipe', code, 'type'],
            mark: 'value' as const,
            message: MESSAGES.retired_signature_type({ pipe: code }),
          },
        ]
      : [],
  );
}

function subjectOf(error: SchemaError, data: Record<string, unknown>): Subject {
  const path = segmentsOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params['additionalProperty']);
      return { path: [...path, key], mark: 'key', message: `Unknown key '${key}' in ${where(path)}` };
    }
    case 'required':
      return {
        path,
        mark: 'key',
        message: `${path.length === 0 ? 'The bundle' : where(path)} is missing the required key '${String(params['missingProperty'])}'`,
      };
    case 'enum':
      return {
        path,
        mark: 'value',
        message: `${where(path)} must be one of ${(params['allowedValues'] as unknown[]).map(show).join(', ')}`,
      };
    case 'discriminator': {
      const pipe = String(path[path.length - 1]);
      const value = params['tagValue'];
      if (value === undefined) {
        const table = valueAt(data, path);
        const kind =
          table === null || typeof table !== 'object' ? undefined : pipeTableKind(table as Record<string, unknown>);
        const stray = kind?.kind === 'missing_type' ? kind.stray : [];
        return { path, mark: 'key', message: MESSAGES.missing_pipe_type({ pipe, allowed: SCHEMA_PIPE_TYPES, stray }) };
      }
      return {
        path: [...path, 'type'],
        mark: 'value',
        message: MESSAGES.unknown_pipe_type({
          pipe,
          value: typeof value === 'string' ? value : show(value),
          allowed: SCHEMA_PIPE_TYPES,
        }),
      };
    }
    default:
      return { path, mark: 'value', message: `${where(path)} ${error.message ?? 'is invalid'}` };
  }
}

function spanFor(subject: Subject, written: ReadonlyMap<string, WrittenAt>): readonly [number, number] | undefined {
  for (let length = subject.path.length; length > 0; length -= 1) {
    const at = written.get(jsonPointer(subject.path.slice(0, length)));
    if (!at) continue;
    return length === subject.path.length && subject.mark === 'value' ? at.value : (at.key ?? at.value);
  }
  return undefined;
}

/**
 * Check bundle data against the embedded schema.
 * @param data - the parsed document (JSON values)
 * @param written - where each value was written ({@link keyPaths})
 * @param text - the source, for ranges
 * @returns one `schema` diagnostic per problem (severity `error`) in text order, those without a range first; empty
 *   when valid
 */
export function schemaDiagnostics(
  data: Record<string, unknown>,
  written: ReadonlyMap<string, WrittenAt>,
  text: SourceText,
): Diagnostic[] {
  const validate = bundleSchemaValidator();
  const errors = validate(withSignatureTypes(data)) ? [] : reduceSchemaErrors(validate.errors ?? []);
  const subjects = [...retiredTagSubjects(data), ...errors.map((error) => subjectOf(error, data))];
  const diagnostics = subjects.map((subject): Diagnostic => {
    const span = spanFor(subject, written);
    return {
      kind: 'schema',
      severity: 'error',
      message: subject.message,
      location: subject.path.length === 0 ? null : dotted(subject.path),
      range: span ? text.range(span[0], span[1]) : null,
    };
  });
  return diagnostics.sort((left, right) => (left.range?.start_offset ?? -1) - (right.range?.start_offset ?? -1));
}
