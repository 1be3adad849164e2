/**
 * The schema part of stage S2 (docs/rules.md): TOML data → typed blueprint, or one validation item per field that
 * breaks `mthds_schema.json` (unknown keys, wrong types, missing fields, values outside an enum, an unknown pipe
 * `type`).
 *
 * @see docs/bundle-format.md#file, docs/pipes.md#common-fields, docs/rules.md#declarations-s2;
 * ../shared/reference/mthds_schema.json
 */
import type { z } from 'zod';
import type { ValidationErrorItem } from '../../errors/index.js';
import { MESSAGES } from '../messages.js';
import type { ValidationErrorType } from '../rules/error-types.js';
import {
  BUNDLE_HEADER,
  type BundleBlueprint,
  CONCEPT_BLUEPRINT,
  type ConceptBlueprint,
  PIPE_SCHEMAS,
  type PipeBlueprint,
  type PipeType,
  SCHEMA_PIPE_TYPES,
} from './blueprint.js';
import { pipeTableKind } from './pipe-table-kind.js';

/** The result of checking one bundle's data: the blueprint when well-formed, and the items (empty when well-formed). */
export interface BlueprintCheck {
  blueprint?: BundleBlueprint;
  items: ValidationErrorItem[];
}

type Issue = z.core.$ZodIssue;
type Segment = PropertyKey;

/** What a table of the bundle is, for messages and item members. */
interface Subject {
  where: string;
  prefix: string[];
  about: Pick<ValidationErrorItem, 'pipe_code' | 'concept_code' | 'domain_code'>;
  schema: z.ZodType;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean (true or false)',
  array: 'an array',
  object: 'a table',
  record: 'a table',
};

/** Formats a path as `steps[0].pipe`. */
function formatPath(path: readonly Segment[]): string {
  return path.reduce<string>(
    (text, segment) =>
      typeof segment === 'number'
        ? `${text}[${segment}]`
        : text === ''
          ? String(segment)
          : `${text}.${String(segment)}`,
    '',
  );
}

function valueAt(data: unknown, path: readonly Segment[]): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The zod definition of a schema (zod 4 keeps it under `_zod.def`). */
function definitionOf(schema: unknown): Record<string, unknown> | undefined {
  return (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
}

/** The keys a strict table accepts at `path` inside `schema`, when the path leads to an object schema. */
function allowedKeysAt(schema: unknown, path: readonly Segment[]): string[] | undefined {
  const def = definitionOf(schema);
  if (!def) return undefined;
  const [head, ...rest] = path;
  switch (def['type']) {
    case 'optional':
    case 'nullable':
    case 'default':
      return allowedKeysAt(def['innerType'], path);
    case 'pipe':
      return allowedKeysAt(def['in'], path);
    case 'union':
      return (def['options'] as unknown[])
        .map((option) => allowedKeysAt(option, path))
        .find((keys) => keys !== undefined);
    case 'array':
      return typeof head === 'number' ? allowedKeysAt(def['element'], rest) : undefined;
    case 'record':
      return typeof head === 'string' ? allowedKeysAt(def['valueType'], rest) : undefined;
    case 'object': {
      const shape = def['shape'] as Record<string, unknown>;
      return head === undefined ? Object.keys(shape) : allowedKeysAt(shape[String(head)], rest);
    }
    default:
      return undefined;
  }
}

/** For a union, the issues of the branch that matched best: the one that got furthest into the value. */
function bestBranch(branches: Issue[][]): Issue[] {
  const score = (issues: Issue[]): number =>
    issues.every((issue) => issue.path.length === 0 && issue.code === 'invalid_type')
      ? 0
      : 1 + Math.max(0, ...issues.map((issue) => issue.path.length));
  return branches.reduce((best, branch) => (score(branch) > score(best) ? branch : best), branches[0] ?? []);
}

/** Flattens unions to the issues of their best branch, with full paths. */
function flatten(issues: readonly Issue[], base: readonly Segment[] = []): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branch = bestBranch(issue.errors);
      if (branch.every((inner) => inner.path.length === 0 && inner.code === 'invalid_type'))
        return [{ ...issue, path }];
      return flatten(branch, path);
    }
    return [{ ...issue, path }];
  });
}

function describeIssue(issue: Issue, value: unknown): { problem: string; errorType: ValidationErrorType } {
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined
        ? { problem: `is required (${TYPE_NAMES[issue.expected] ?? issue.expected})`, errorType: 'missing' }
        : {
            problem: `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}, got ${show(value)}`,
            errorType: 'invalid_type',
          };
    case 'invalid_value':
      return {
        problem: `${show(value)} is not allowed (allowed: ${issue.values.map((allowed) => String(allowed)).join(', ')})`,
        errorType: 'enum',
      };
    case 'invalid_union':
      return { problem: `${show(value)} has none of the accepted forms`, errorType: 'invalid_type' };
    case 'too_big':
      return { problem: `${show(value)} is too big (at most ${String(issue.maximum)})`, errorType: 'value_error' };
    case 'too_small':
      return { problem: `${show(value)} is too small (at least ${String(issue.minimum)})`, errorType: 'value_error' };
    default:
      return { problem: issue.message, errorType: 'value_error' };
  }
}

function issueItems(
  issues: readonly Issue[],
  data: unknown,
  subject: Subject,
  source: string | null,
): ValidationErrorItem[] {
  return flatten(issues).map((issue) => {
    const fieldPath = [...subject.prefix, formatPath(issue.path)].filter((part) => part !== '').join('.');
    if (issue.code === 'unrecognized_keys') {
      return {
        category: 'blueprint_validation',
        message: MESSAGES.schema_unknown_keys({
          where: subject.where,
          keys: issue.keys,
          allowed: allowedKeysAt(subject.schema, issue.path),
        }),
        error_type: 'extra_forbidden',
        source,
        ...subject.about,
        field_path: [fieldPath, issue.keys[0]].filter((part) => part !== '').join('.'),
        field_name: issue.keys[0] ?? '',
      };
    }
    const { problem, errorType } = describeIssue(issue, valueAt(data, issue.path));
    const names = issue.path.filter((segment): segment is string => typeof segment === 'string');
    const item: ValidationErrorItem = {
      category: 'blueprint_validation',
      message: MESSAGES.schema_issue({ where: subject.where, field: formatPath(issue.path) || '(table)', problem }),
      error_type: errorType,
      source,
      ...subject.about,
      field_path: fieldPath,
    };
    const fieldName = names[names.length - 1];
    if (fieldName !== undefined) item.field_name = fieldName;
    return item;
  });
}

function checkPipe(
  code: string,
  raw: unknown,
  domain: string,
  source: string | null,
): { pipe?: PipeBlueprint; items: ValidationErrorItem[] } {
  const about = { pipe_code: code, domain_code: domain };
  const at = { source, ...about, field_path: `pipe.${code}` };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      items: [
        {
          category: 'blueprint_validation',
          message: MESSAGES.pipe_not_a_table({ pipe: code }),
          error_type: 'invalid_type',
          ...at,
        },
      ],
    };
  }
  const table = pipeTableKind(raw as Record<string, unknown>);
  const typeItem = (message: string, errorType: 'missing_pipe_type' | 'unknown_pipe_type') => ({
    items: [
      {
        category: 'blueprint_validation' as const,
        message,
        error_type: errorType,
        ...at,
        field_path: `pipe.${code}.type`,
        field_name: 'type',
      },
    ],
  });
  switch (table.kind) {
    case 'missing_type':
      return typeItem(
        MESSAGES.missing_pipe_type({ pipe: code, allowed: SCHEMA_PIPE_TYPES, stray: table.stray }),
        'missing_pipe_type',
      );
    case 'retired_signature_tag':
      return typeItem(MESSAGES.retired_signature_type({ pipe: code }), 'unknown_pipe_type');
    case 'unknown_type':
      return typeItem(
        MESSAGES.unknown_pipe_type({
          pipe: code,
          value: typeof table.value === 'string' ? table.value : show(table.value),
          allowed: SCHEMA_PIPE_TYPES,
        }),
        'unknown_pipe_type',
      );
  }
  const type: PipeType = table.kind === 'signature' ? 'PipeSignature' : table.type;
  const schema = PIPE_SCHEMAS[type];
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { pipe: parsed.data as PipeBlueprint, items: [] };
  return {
    items: issueItems(
      parsed.error.issues,
      raw,
      { where: `Pipe '${code}' (${type})`, prefix: ['pipe', code], about, schema },
      source,
    ),
  };
}

/**
 * Check a bundle's TOML data against the blueprint schemas.
 * @param data - the parsed TOML top-level table
 * @param source - the logical file name put on the items, or null
 * @returns the typed blueprint when the data is a well-formed bundle; otherwise the items, one per problem
 *   (`blueprint_validation`; `error_type` `unknown_pipe_type` for an unknown pipe type (the reference's
 *   `PipeValidationErrorType`; older reference samples named it `union_tag_invalid`), `missing_pipe_type`,
 *   `extra_forbidden` for unknown keys, `missing`, `invalid_type`, `enum`, `value_error`). Empty data gives the single
 *   residual item (no `source`, no `error_type`) of spec §2.6. A table without `type` is a signature when it holds
 *   only the signature keys, else `missing_pipe_type` naming the other keys; `type = "PipeSignature"` (the retired
 *   tag) is `unknown_pipe_type` with a migration message (docs/pipes.md#pipesignature).
 * @see docs/rules.md#declarations-s2, spec §2.6
 */
export function checkBlueprint(data: Record<string, unknown>, source: string | null): BlueprintCheck {
  if (Object.keys(data).length === 0)
    return { items: [{ category: 'blueprint_validation', message: MESSAGES.empty_bundle() }] };
  const header = BUNDLE_HEADER.safeParse(data);
  if (!header.success)
    return {
      items: issueItems(
        header.error.issues,
        data,
        { where: 'Bundle header', prefix: [], about: {}, schema: BUNDLE_HEADER },
        source,
      ),
    };
  const domain = header.data.domain;
  const items: ValidationErrorItem[] = [];
  const concept: Record<string, ConceptBlueprint | string> = {};
  for (const [code, raw] of Object.entries(header.data.concept ?? {})) {
    if (typeof raw === 'string') {
      concept[code] = raw;
      continue;
    }
    const parsed = CONCEPT_BLUEPRINT.safeParse(raw);
    if (parsed.success) concept[code] = parsed.data;
    else {
      const subject = {
        where: `Concept '${code}'`,
        prefix: ['concept', code],
        about: { concept_code: code, domain_code: domain },
        schema: CONCEPT_BLUEPRINT,
      };
      items.push(...issueItems(parsed.error.issues, raw, subject, source));
    }
  }
  const pipe: Record<string, PipeBlueprint> = {};
  for (const [code, raw] of Object.entries(header.data.pipe ?? {})) {
    const checked = checkPipe(code, raw, domain, source);
    if (checked.pipe) pipe[code] = checked.pipe;
    items.push(...checked.items);
  }
  if (items.length > 0) return { items };
  const blueprint: BundleBlueprint = { domain, concept, pipe };
  if (header.data.description !== undefined) blueprint.description = header.data.description;
  if (header.data.system_prompt !== undefined) blueprint.system_prompt = header.data.system_prompt;
  if (header.data.main_pipe !== undefined) blueprint.main_pipe = header.data.main_pipe;
  return { blueprint, items };
}
