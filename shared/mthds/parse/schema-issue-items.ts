/**
 * The items of schema issues (stage S2, docs/rules.md): a zod issue raised by a blueprint schema, turned into a
 * `blueprint_validation` item in the caller's words (where, which field, what was expected, the value found), with the
 * keys a table accepts when one it does not know is written.
 */
import type { z } from 'zod';
import type { ValidationErrorItem } from '../../errors/index.js';
import { MESSAGES } from '../messages.js';
import type { ValidationErrorType } from '../rules/error-types.js';

type Issue = z.core.$ZodIssue;
type Segment = PropertyKey;

/** What a table of the bundle is, for messages and item members. */
export interface Subject {
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

/**
 * A value as a message shows it: its JSON, cut to 60 characters.
 * @param value - any value of the parsed data
 */
export function show(value: unknown): string {
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

/**
 * The validation items of a table's schema issues, one per issue (a union's issues read from its best-matching form).
 * @param issues - the issues of the table's `safeParse`
 * @param data - the table as parsed, to quote the offending values
 * @param subject - what the table is: its name in messages, its path prefix, the item members naming it, its schema
 * @param source - the logical file name put on the items, or null
 * @returns `blueprint_validation` items: `extra_forbidden` for unknown keys (with the keys the table accepts), else
 *   `missing`, `invalid_type`, `enum` or `value_error`
 */
export function issueItems(
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
