/**
 * The verdicts of the diagnostic and tooling routes (`/v1/validate`, `/v1/resolve`, `/v1/codegen`, `/v1/pipe-io`, `/v1/build/*`,
 * `/v1/lint`, `/v1/format`) as the OpenAPI document describes them: each is a 200 whether the bundle is valid or not
 * (spec §7.2 rule 2). Names and members follow the reference OpenAPI (`ValidReport`, `InvalidReport`,
 * `ResolveValidReport`, `CrateInvalidReport`, `CodegenValidReport`, `Build*ValidReport`, `LintResponse`,
 * `FormatResponse`, `Diagnostic`, `Range`). Deep structures (blueprints, graphs, crates, JSON schemas) are described
 * in docs/ and left open here.
 */
import { z } from 'zod';
import { VALIDATION_ERROR_ITEM } from './problem-document.js';

const OPEN_OBJECT = z.looseObject({});

const CONTRACT_MULTIPLICITY = z.enum(['single', 'variable', 'fixed']);

export const PIPE_IO_CONTRACT = z
  .looseObject({
    inputs: z.record(
      z.string(),
      z
        .looseObject({
          concept_ref: z.string(),
          optional: z.boolean(),
          presence: z.enum(['plain', 'optional', 'force']),
          multiplicity: CONTRACT_MULTIPLICITY,
          item_count: z.number().int().nullable(),
          json_schema: OPEN_OBJECT,
        })
        .meta({ id: 'PipeInputContract' }),
    ),
    output: z
      .looseObject({
        concept_ref: z.string(),
        multiplicity: CONTRACT_MULTIPLICITY,
        item_count: z.number().int().nullable(),
        optional: z.boolean(),
        json_schema: OPEN_OBJECT,
      })
      .meta({ id: 'PipeOutputContract' }),
  })
  .meta({ id: 'PipeIOContract', description: 'The inputs and output a pipe declares, with their JSON schemas.' });

const RENDERED_MARKDOWN = z
  .string()
  .optional()
  .meta({ description: 'With `render: ["markdown"]`: the verdict as Markdown (docs/api.md#rendered-markdown).' });

const VALID_REPORT = z
  .looseObject({
    is_valid: z.literal(true),
    bundle_blueprint: OPEN_OBJECT.meta({ description: 'The primary bundle as written, with its `source`.' }),
    pipe_io_contracts: z.record(z.string(), PIPE_IO_CONTRACT).meta({ description: 'By qualified pipe ref.' }),
    liftable_pipes: z.array(
      z
        .looseObject({
          pipe_ref: z.string(),
          within_pipe_ref: z.string(),
          skipped_when_absent: z.array(z.string()),
          absence_source: z.string(),
        })
        .meta({
          id: 'LiftablePipeEntry',
          description: 'One pipe that may be skipped (lifted) when an optional slot resolves absent.',
        }),
    ),
    graph_spec: OPEN_OBJECT.nullable().meta({ description: 'The graph of a dry run of the main pipe, or null.' }),
    validated_pipes: z.array(
      z
        .looseObject({ pipe_ref: z.string(), status: z.enum(['SUCCESS', 'FAILURE', 'SKIPPED']) })
        .meta({ id: 'ValidatedPipeEntry' }),
    ),
    warnings: z.array(VALIDATION_ERROR_ITEM),
    pending_signatures: z.array(z.string()),
    is_runnable: z.boolean(),
    mthds_contents: z.array(z.string()),
    message: z.string(),
    default_pipe_ref: z.string().nullable(),
    input_form: z.record(z.string(), OPEN_OBJECT).optional().meta({ description: 'With `views: ["input_form"]`.' }),
    output_form: z.record(z.string(), OPEN_OBJECT).optional().meta({ description: 'With `views: ["output_form"]`.' }),
    rendered_markdown: RENDERED_MARKDOWN,
  })
  .meta({ id: 'ValidReport', description: 'The bundle is valid (docs/api.md#post-v1validate).' });

const INVALID_REPORT = z
  .looseObject({
    is_valid: z.literal(false),
    validation_errors: z.array(VALIDATION_ERROR_ITEM),
    pending_signatures: z.array(z.string()),
    is_runnable: z.literal(false),
    message: z.string(),
    rendered_markdown: RENDERED_MARKDOWN,
  })
  .meta({ id: 'InvalidReport', description: 'The bundle is invalid: the items say why.' });

const CRATE_INVALID_REPORT = z
  .looseObject({ is_valid: z.literal(false), validation_errors: z.array(VALIDATION_ERROR_ITEM), message: z.string() })
  .meta({ id: 'CrateInvalidReport', description: 'The closure is invalid: the items say why.' });

/** `POST /v1/validate`. */
export const VALIDATE_VERDICT = z.union([VALID_REPORT, INVALID_REPORT]);

/** `POST /v1/resolve` (docs/crate.md). */
export const RESOLVE_VERDICT = z.union([
  z
    .looseObject({ is_valid: z.literal(true), crate: OPEN_OBJECT, message: z.string() })
    .meta({ id: 'ResolveValidReport', description: 'The resolved crate (docs/crate.md).' }),
  CRATE_INVALID_REPORT,
]);

const GENERATED_ARTIFACT = z
  .looseObject({ path: z.string(), content: z.string() })
  .meta({ id: 'GeneratedArtifact', description: 'One generated file.' });

/** `POST /v1/codegen` (docs/codegen.md). */
export const CODEGEN_VERDICT = z.union([
  z
    .looseObject({
      is_valid: z.literal(true),
      kind: z.string(),
      target: z.string(),
      crate_fingerprint: z.string(),
      engine_version: z.string(),
      artifacts: z.array(GENERATED_ARTIFACT),
      lock: z.string(),
      lock_filename: z.string(),
      message: z.string(),
    })
    .meta({ id: 'CodegenValidReport', description: 'The generated artifacts and their lock (docs/codegen.md).' }),
  CRATE_INVALID_REPORT,
]);

/** `POST /v1/pipe-io` (docs/api.md#post-v1pipe-io). */
export const PIPE_IO_VERDICT = z.union([
  z
    .looseObject({
      is_valid: z.literal(true),
      pipe_ref: z.string().nullable(),
      pipe_io_contracts: z.record(z.string(), PIPE_IO_CONTRACT),
      input_form: z.record(z.string(), OPEN_OBJECT),
      output_form: z.record(z.string(), OPEN_OBJECT),
      default_pipe_ref: z.string().nullable(),
      pending_signatures: z.array(z.string()),
      is_runnable: z.boolean(),
      files: z
        .array(z.looseObject({ content: z.string(), source: z.string().nullable().optional() }))
        .optional()
        .meta({ description: 'With `include_files: true`: the closure’s `.mthds` files.' }),
    })
    .meta({
      id: 'PipeIoValidReport',
      description: 'The selected pipe’s (or every pipe’s) contracts and forms, keyed by qualified pipe ref.',
    }),
  CRATE_INVALID_REPORT,
]);

/** `POST /v1/build/inputs` (docs/codegen.md). */
export const BUILD_INPUTS_VERDICT = z.union([
  z
    .looseObject({
      is_valid: z.literal(true),
      pipe_ref: z.string(),
      format: z.enum(['json', 'toml']),
      explicit: z.boolean(),
      inputs: OPEN_OBJECT.nullable().optional(),
      inputs_toml: z.string().nullable().optional(),
      message: z.string(),
    })
    .meta({ id: 'BuildInputsValidReport', description: 'An inputs template of the pipe.' }),
  CRATE_INVALID_REPORT,
]);

/** `POST /v1/build/output` (docs/codegen.md). */
export const BUILD_OUTPUT_VERDICT = z.union([
  z
    .looseObject({
      is_valid: z.literal(true),
      pipe_ref: z.string(),
      format: z.enum(['schema', 'json', 'python']),
      output: OPEN_OBJECT.nullable().optional(),
      output_python: z.string().nullable().optional(),
      message: z.string(),
    })
    .meta({ id: 'BuildOutputValidReport', description: "A representation of the pipe's output." }),
  CRATE_INVALID_REPORT,
]);

/** `POST /v1/build/runner` (docs/codegen.md). */
export const BUILD_RUNNER_VERDICT = z.union([
  z
    .looseObject({
      is_valid: z.literal(true),
      pipe_ref: z.string(),
      python_code: z.string(),
      structures: z
        .looseObject({
          directory: z.string(),
          artifacts: z.array(GENERATED_ARTIFACT),
          lock: z.string(),
          lock_filename: z.string(),
        })
        .meta({ id: 'RunnerStructures' }),
      message: z.string(),
    })
    .meta({ id: 'BuildRunnerValidReport', description: 'A Python script running the pipe, and its structures.' }),
  CRATE_INVALID_REPORT,
]);

const RANGE = z
  .object({
    start_offset: z.number().int(),
    end_offset: z.number().int(),
    start_line: z.number().int(),
    start_col: z.number().int(),
    end_line: z.number().int(),
    end_col: z.number().int(),
  })
  .meta({ id: 'Range', description: 'Offsets are 0-based UTF-8 bytes (end exclusive); lines and columns 1-based.' });

const DIAGNOSTIC = z
  .object({
    kind: z.enum(['syntax', 'semantic', 'schema']),
    severity: z.string(),
    message: z.string(),
    location: z.string().nullable().meta({ description: 'Dotted key path of the offending key or value.' }),
    range: RANGE.nullable(),
  })
  .meta({ id: 'Diagnostic', description: 'One lint diagnostic (docs/formatting.md#lint).' });

/** `POST /v1/lint`. */
export const LINT_RESPONSE = z
  .object({ diagnostics: z.array(DIAGNOSTIC) })
  .meta({ id: 'LintResponse', description: 'Every diagnostic of the text; empty for a clean file.' });

/** `POST /v1/format`. */
export const FORMAT_RESPONSE = z
  .object({ formatted: z.string(), changed: z.boolean(), diagnostics: z.array(DIAGNOSTIC) })
  .meta({
    id: 'FormatResponse',
    description: 'The formatted text; unchanged, with its diagnostic, on a syntax error.',
  });

/** `POST /v1/build/concept` (the reference's `BuildConceptResponse`). */
export const BUILD_CONCEPT_RESPONSE = z
  .object({ success: z.boolean(), concept_code: z.string(), toml: z.string() })
  .meta({ id: 'BuildConceptResponse', description: 'The concept as a `[concept.<code>]` TOML table.' });

/** `POST /v1/build/pipe-spec` (the reference's `BuildPipeSpecResponse`). */
export const BUILD_PIPE_SPEC_RESPONSE = z
  .object({ success: z.boolean(), pipe_code: z.string(), pipe_type: z.string(), toml: z.string() })
  .meta({ id: 'BuildPipeSpecResponse', description: 'The pipe as a `[pipe.<code>]` TOML table.' });
