/**
 * The RFC 7807 problem document every failure answers with (spec §7.1; docs/errors.md), and the validation items and
 * suggested fixes it and the verdicts carry (spec §2.6, §2.7), as the OpenAPI document describes them. Component names
 * and members follow the reference OpenAPI (`ProblemDocument`, `ValidationErrorItem`, `SuggestedFix`, `UserAction`).
 */
import { z } from 'zod';

const USER_ACTION = z
  .object({
    kind: z.enum([
      'wait_and_retry',
      'check_billing',
      'check_credentials',
      'change_input',
      'change_model',
      'contact_support',
      'unknown',
    ]),
    detail: z.string(),
  })
  .meta({ id: 'UserAction', description: 'What the caller can do about the failure.' });

const PROVIDER_ERROR_METADATA = z
  .looseObject({
    provider: z.string(),
    sdk_exception_type: z.string(),
    message: z.string().optional(),
    status_code: z.number().int().optional(),
    request_id: z.string().optional(),
    retry_after_seconds: z.number().nullable().optional(),
    provider_error_code: z.string().optional(),
  })
  .meta({
    id: 'ProviderErrorMetadata',
    description:
      'What the upstream inference provider said. Under `ERROR_DISCLOSURE=strict` only `status_code` and `retry_after_seconds` remain.',
  });

const FIX_OP = z
  .looseObject({
    kind: z.enum([
      'set_key',
      'ensure_table',
      'delete_key',
      'delete_table',
      'rename_table_key',
      'move_key',
      'remap_value',
    ]),
    table_path: z.array(z.string()),
  })
  .meta({ description: 'One TOML patch operation, discriminated on `kind` (docs/suggested-fixes.md).' });

const SUGGESTED_FIX = z
  .object({
    fix_code: z.string(),
    description: z.string(),
    safety: z.enum(['safe', 'unsafe']),
    source: z.string().nullable().optional(),
    ops: z.array(FIX_OP),
  })
  .meta({
    id: 'SuggestedFix',
    description: 'A structured fix of a validation item (spec §2.7; docs/suggested-fixes.md).',
  });

/**
 * One validation item of a verdict or of a `ValidateBundleError` (spec §2.6): absent members are omitted, never null.
 */
export const VALIDATION_ERROR_ITEM = z
  .object({
    category: z.enum(['blueprint_validation', 'pipe_factory', 'pipe_validation', 'dry_run']),
    message: z.string(),
    error_type: z.string().optional(),
    source: z.string().nullable().optional(),
    pipe_code: z.string().optional(),
    concept_code: z.string().optional(),
    domain_code: z.string().optional(),
    field_path: z.string().optional(),
    field_name: z.string().optional(),
    variable_names: z.array(z.string()).optional(),
    missing_concept_code: z.string().optional(),
    missing_pipe_code: z.string().optional(),
    declared_concepts: z.array(z.string()).optional(),
    model_reference: z
      .string()
      .optional()
      .meta({ description: '`unknown_model`: the model reference as written (protocol 0.7.0).' }),
    model_type: z.string().optional().meta({
      description:
        '`unknown_model`: the kind of model the field takes (`llm`, `img_gen`, `text_extractor`, `search`, `judgment`).',
    }),
    suggestions: z
      .array(z.string())
      .optional()
      .meta({ description: "`unknown_model`: the deck's closest names of the same kind, sigil included." }),
    suggested_fix: SUGGESTED_FIX.optional(),
  })
  .meta({ id: 'ValidationErrorItem', description: 'One problem found in a bundle (spec §2.6).' });

/** The problem document (spec §7.1): RFC 7807 members plus the classification members; extension members may follow. */
export const PROBLEM_DOCUMENT = z
  .looseObject({
    type: z.string().meta({ description: '`{ERROR_DOCS_URL}/errors/<kebab-case error_type>/`.' }),
    title: z.string(),
    status: z.number().int().meta({ description: 'The HTTP status, repeated.' }),
    detail: z.string(),
    instance: z.string().meta({ description: 'The request path.' }),
    request_id: z.string().meta({ description: 'The `X-Request-ID` of the response.' }),
    error_type: z.string().meta({ description: 'Stable class name of the error (docs/errors.md#catalog).' }),
    code: z
      .string()
      .optional()
      .meta({ description: 'Machine-readable code of a few errors (`run_not_found`, …); never on an unknown route.' }),
    error_domain: z.enum(['input', 'config', 'runtime']).optional(),
    retryable: z.boolean().optional(),
    error_category: z.string().optional(),
    user_action: USER_ACTION.optional(),
    model: z.string().optional(),
    provider: z.string().optional(),
    provider_metadata: PROVIDER_ERROR_METADATA.optional(),
    validation_errors: z
      .array(VALIDATION_ERROR_ITEM)
      .optional()
      .meta({ description: '`ValidateBundleError` only: the items of the verdict.' }),
    trace_id: z
      .string()
      .optional()
      .meta({ description: 'The id of the request’s OpenTelemetry trace, when tracing is on (docs/tracing.md).' }),
  })
  .meta({
    id: 'ProblemDocument',
    description: 'An RFC 7807 `application/problem+json` body: the shape of every failure (docs/errors.md).',
  });
