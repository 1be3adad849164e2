/**
 * The schema part of stage S2 (docs/rules.md): TOML data → typed blueprint, or one validation item per field that
 * breaks `mthds_schema.json` (unknown keys, wrong types, missing fields, values outside an enum, an unknown pipe
 * `type`).
 *
 * @see docs/bundle-format.md#file, docs/pipes.md#common-fields, docs/rules.md#declarations-s2;
 * ../shared/reference/mthds_schema.json
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import { MESSAGES } from '../messages.js';
import { BUNDLE_HEADER, type BundleBlueprint } from './blueprint.js';
import { CONCEPT_BLUEPRINT, type ConceptBlueprint } from './concept-blueprint.js';
import { PIPE_SCHEMAS, type PipeBlueprint, type PipeType, SCHEMA_PIPE_TYPES } from './pipe-blueprints.js';
import { pipeTableKind } from './pipe-table-kind.js';
import { issueItems, show } from './schema-issue-items.js';

/** The result of checking one bundle's data: the blueprint when well-formed, and the items (empty when well-formed). */
export interface BlueprintCheck {
  blueprint?: BundleBlueprint;
  items: ValidationErrorItem[];
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
