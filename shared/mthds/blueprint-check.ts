/**
 * Stage 2 (LANGUAGE.md §6 S2 schema part): TOML data → typed blueprint, or validation items naming each field that
 * breaks `mthds_schema.json` (unknown keys, wrong types, missing fields, unknown pipe `type`).
 */
import type { z } from 'zod';
import type { ValidationErrorItem } from '../errors/index.js';
import {
  BUNDLE_HEADER,
  CONCEPT_BLUEPRINT,
  PIPE_SCHEMAS,
  SCHEMA_PIPE_TYPES,
  type BundleBlueprint,
  type ConceptBlueprint,
  type PipeBlueprint,
  type PipeType,
} from './blueprint.js';

/** Result of checking one bundle's data. */
export interface BlueprintCheck {
  /** Present when the data is a well-formed bundle. */
  blueprint?: BundleBlueprint;
  items: ValidationErrorItem[];
}

function errorTypeOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return 'extra_forbidden';
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return 'missing';
  if (issue.code === 'invalid_value') return 'enum';
  if (issue.code === 'invalid_type') return 'invalid_type';
  return 'value_error';
}

function issueItems(
  issues: z.core.$ZodIssue[],
  prefix: string[],
  source: string | null,
  about: Pick<ValidationErrorItem, 'pipe_code' | 'concept_code' | 'domain_code'>,
): ValidationErrorItem[] {
  return issues.map((issue) => {
    const path = [...prefix, ...issue.path.map(String)];
    const keys = issue.code === 'unrecognized_keys' ? ` (unknown key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')})` : '';
    const item: ValidationErrorItem = {
      category: 'blueprint_validation',
      message: `${path.join('.') || 'bundle'}: ${issue.message}${keys}`,
      error_type: errorTypeOf(issue),
      source,
      ...about,
      field_path: path.join('.'),
    };
    const fieldName = issue.code === 'unrecognized_keys' ? issue.keys[0] : path[path.length - 1];
    if (fieldName !== undefined) item.field_name = fieldName;
    return item;
  });
}

function pipeTypeOf(table: Record<string, unknown>): PipeType | { invalid: string } {
  const type = table['type'];
  if (type === undefined && 'signature_for' in table) return 'PipeSignature';
  if (typeof type === 'string' && (SCHEMA_PIPE_TYPES as string[]).includes(type)) return type as PipeType;
  return { invalid: type === undefined ? '(missing)' : String(type) };
}

/**
 * Check a bundle's data against the blueprint schemas.
 * @param data - parsed TOML
 * @param source - logical file name for the items, or null
 * @see LANGUAGE.md §6 S2, ../shared/reference/mthds_schema.json
 */
export function checkBlueprint(data: Record<string, unknown>, source: string | null): BlueprintCheck {
  if (Object.keys(data).length === 0) {
    return { items: [{ category: 'blueprint_validation', message: 'The bundle is empty: a bundle needs at least `domain`.' }] };
  }
  const header = BUNDLE_HEADER.safeParse(data);
  if (!header.success) return { items: issueItems(header.error.issues, [], source, {}) };
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
    else items.push(...issueItems(parsed.error.issues, ['concept', code], source, { concept_code: code, domain_code: domain }));
  }
  const pipe: Record<string, PipeBlueprint> = {};
  for (const [code, raw] of Object.entries(header.data.pipe ?? {})) {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      items.push({ category: 'blueprint_validation', message: `pipe.${code}: a pipe must be a table.`, error_type: 'invalid_type', source, pipe_code: code, domain_code: domain, field_path: `pipe.${code}` });
      continue;
    }
    const type = pipeTypeOf(raw as Record<string, unknown>);
    if (typeof type === 'object') {
      items.push({
        category: 'blueprint_validation',
        message: `pipe.${code}.type: '${type.invalid}' is not a pipe type (expected one of ${SCHEMA_PIPE_TYPES.join(', ')}).`,
        error_type: 'union_tag_invalid',
        source,
        pipe_code: code,
        domain_code: domain,
        field_path: `pipe.${code}.type`,
        field_name: 'type',
      });
      continue;
    }
    const parsed = PIPE_SCHEMAS[type].safeParse(raw);
    if (parsed.success) pipe[code] = parsed.data as PipeBlueprint;
    else items.push(...issueItems(parsed.error.issues, ['pipe', code], source, { pipe_code: code, domain_code: domain }));
  }
  if (items.length > 0) return { items };
  const blueprint: BundleBlueprint = { domain, concept, pipe };
  if (header.data.description !== undefined) blueprint.description = header.data.description;
  if (header.data.system_prompt !== undefined) blueprint.system_prompt = header.data.system_prompt;
  if (header.data.main_pipe !== undefined) blueprint.main_pipe = header.data.main_pipe;
  return { blueprint, items };
}
