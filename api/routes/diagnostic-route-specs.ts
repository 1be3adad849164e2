/**
 * What the OpenAPI document says of the diagnostic and tooling routes (docs/api.md#post-v1validate, docs/crate.md,
 * docs/codegen.md, docs/api.md#post-v1lint): for each route of `DIAGNOSTIC_ROUTES`, its operation, summary and
 * description, its request body's name and example, its 200 schema and the problems it may answer. The routes
 * themselves are served by `diagnostics.ts`.
 */
import type { z } from 'zod';
import { EXAMPLE_BUNDLE } from '../openapi/examples.js';
import type { ProblemSpec, RouteSpec } from '../openapi/route-spec.js';
import { LEGACY_VALIDATE_RESPONSE } from '../openapi/schemas/legacy.js';
import {
  BUILD_CONCEPT_RESPONSE,
  BUILD_INPUTS_VERDICT,
  BUILD_OUTPUT_VERDICT,
  BUILD_PIPE_SPEC_RESPONSE,
  BUILD_RUNNER_VERDICT,
  CODEGEN_VERDICT,
  FORMAT_RESPONSE,
  LINT_RESPONSE,
  PIPE_IO_VERDICT,
  RESOLVE_VERDICT,
  VALIDATE_VERDICT,
} from '../openapi/schemas/reports.js';
import { DIAGNOSTIC_ROUTES, type DiagnosticRoute } from '../requests/diagnostic-requests.js';

/** What the OpenAPI document says of a diagnostic route beyond its path and request schema. */
interface DiagnosticDoc {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  protocol?: boolean;
  /** An older route kept for earlier clients (spec §4.12). */
  deprecated?: boolean;
  /** The request body's name among the document's schemas. */
  bodyId: string;
  example: unknown;
  verdict: z.ZodType;
  problems: readonly ProblemSpec[];
}

/** Problems of every diagnostic route: the body, the isolated thread answering it (docs/isolation.md). */
const DIAGNOSTIC_PROBLEMS: readonly ProblemSpec[] = [
  'ValidationError',
  'ComputeBudgetExceededError',
  'ServerBusyError',
];

/** Problems of fetching a `method_ref` (docs/methods.md). */
const METHOD_REF_PROBLEMS: readonly ProblemSpec[] = [
  'CustomCodeRequiresSandbox',
  'MethodStructuresRefusedError',
  'MethodPackageNotFoundError',
  'MethodRefParseError',
  'MethodFetchError',
  'MethodPackageAmbiguityError',
  'MethodPackageTooLargeError',
  'MethodRefNotSupported',
];

/** Problems of looking a `method_id` up in the caller's catalog (docs/methods.md#method_id). */
const METHOD_ID_PROBLEMS: readonly ProblemSpec[] = [
  'MethodNotFoundError',
  'MethodBeingDeletedError',
  'MethodNotPublishedError',
  'MethodVersionNotFoundError',
];

const FILES_EXAMPLE = { files: [{ content: EXAMPLE_BUNDLE, source: 'greet.mthds' }] };

const CLOSURE = 'Send the closure as `files` or as a `method_ref`, exactly one.';

const CLOSURE_BY_ID =
  'Send the closure as `files`, as a `method_ref` or as a stored method’s `method_id` (docs/methods.md#method_id), exactly one.';

const VERDICT = 'The verdict: `is_valid` says whether the closure is valid; the items say why not.';

/** The routes whose 200 is a verdict (the others answer a result). */
const VERDICT_ROUTES: ReadonlySet<DiagnosticRoute> = new Set([
  'validate',
  'resolve',
  'codegen',
  'pipeIo',
  'buildInputs',
  'buildOutput',
  'buildRunner',
]);

const DIAGNOSTIC_DOCS: Record<DiagnosticRoute, DiagnosticDoc> = {
  validate: {
    operationId: 'validate_mthds_v1_validate_post',
    tag: 'validate',
    summary: 'Validate Mthds',
    description:
      'Static validation of the bundles, then a dry run of every pipe (mock inputs, mock inference). The bundles come as `mthds_contents`, a `method_ref` or a stored method’s `method_id`, exactly one. An invalid bundle is a 200 verdict, never an error (docs/api.md#post-v1validate).',
    protocol: true,
    bodyId: 'ValidateRequest',
    example: { mthds_contents: [EXAMPLE_BUNDLE] },
    verdict: VALIDATE_VERDICT,
    problems: [
      'OrchestrationModeOverrideForbidden',
      ...METHOD_REF_PROBLEMS,
      ...METHOD_ID_PROBLEMS,
      'MissingOrchestratorError',
    ],
  },
  resolve: {
    operationId: 'resolve_mthds_v1_resolve_post',
    tag: 'resolve',
    summary: 'Resolve Mthds',
    description: `The resolved crate of a closure: every concept, pipe and domain, qualified (docs/crate.md). ${CLOSURE_BY_ID}`,
    bodyId: 'MthdsFilesRequest',
    example: FILES_EXAMPLE,
    verdict: RESOLVE_VERDICT,
    problems: [...METHOD_REF_PROBLEMS, ...METHOD_ID_PROBLEMS],
  },
  codegen: {
    operationId: 'codegen_mthds_v1_codegen_post',
    tag: 'codegen',
    summary: 'Codegen Mthds',
    description: `Typed projections of the concepts of a closure, with their lock (docs/codegen.md). ${CLOSURE_BY_ID}`,
    bodyId: 'CodegenRequest',
    example: { ...FILES_EXAMPLE, kind: 'types', target: 'ts-zod' },
    verdict: CODEGEN_VERDICT,
    problems: [...METHOD_REF_PROBLEMS, ...METHOD_ID_PROBLEMS],
  },
  pipeIo: {
    operationId: 'pipe_io_v1_pipe_io_post',
    tag: 'pipe-io',
    summary: 'Pipe IO',
    description: `The I/O contracts, input form and output form of one pipe (\`pipe_ref\`, else the method’s entry pipe) or of every pipe (\`all_pipes\`), as \`/v1/validate\`’s views give them; static validation only, no dry run (docs/api.md#post-v1pipe-io). ${CLOSURE_BY_ID}`,
    bodyId: 'PipeIoRequest',
    example: FILES_EXAMPLE,
    verdict: PIPE_IO_VERDICT,
    problems: ['EntryPipeNotFoundError', 'EntryPipeAmbiguousError', ...METHOD_REF_PROBLEMS, ...METHOD_ID_PROBLEMS],
  },
  buildInputs: {
    operationId: 'build_inputs_v1_build_inputs_post',
    tag: 'build',
    summary: 'Build Inputs',
    description: `An inputs template of a pipe, as JSON or TOML (docs/codegen.md). ${CLOSURE}`,
    bodyId: 'BuildInputsRequest',
    example: FILES_EXAMPLE,
    verdict: BUILD_INPUTS_VERDICT,
    problems: ['PipeNotFoundError', ...METHOD_REF_PROBLEMS],
  },
  buildOutput: {
    operationId: 'build_output_v1_build_output_post',
    tag: 'build',
    summary: 'Build Output',
    description: `The output of a pipe as a JSON schema, a JSON example or Python (docs/codegen.md). ${CLOSURE}`,
    bodyId: 'BuildOutputRequest',
    example: FILES_EXAMPLE,
    verdict: BUILD_OUTPUT_VERDICT,
    problems: ['PipeNotFoundError', ...METHOD_REF_PROBLEMS],
  },
  buildRunner: {
    operationId: 'build_runner_v1_build_runner_post',
    tag: 'build',
    summary: 'Build Runner',
    description: `A Python script running a pipe, with its structures, after a dry run (docs/codegen.md). ${CLOSURE}`,
    bodyId: 'BuildRunnerRequest',
    example: FILES_EXAMPLE,
    verdict: BUILD_RUNNER_VERDICT,
    problems: ['PipeNotFoundError', ...METHOD_REF_PROBLEMS],
  },
  buildConcept: {
    operationId: 'build_concept_v1_build_concept_post',
    tag: 'agent',
    summary: 'Build Concept',
    description:
      'A concept definition spec (the concept table as written in a bundle, with its `concept_code`) as TOML; checked against the bundle schema, not against a library (docs/codegen.md#definition-specs).',
    bodyId: 'BuildConceptRequest',
    example: { spec: { concept_code: 'Greeting', description: 'A greeting', refines: 'Text' } },
    verdict: BUILD_CONCEPT_RESPONSE,
    problems: [],
  },
  buildPipeSpec: {
    operationId: 'build_pipe_spec_v1_build_pipe_spec_post',
    tag: 'agent',
    summary: 'Build Pipe Spec',
    description:
      'A pipe definition spec (the pipe table as written in a bundle, with its `pipe_code`) as TOML; checked against the bundle schema, not against a library (docs/codegen.md#definition-specs).',
    bodyId: 'BuildPipeSpecRequest',
    example: {
      pipe_type: 'PipeLLM',
      spec: { pipe_code: 'greet', description: 'Greet', inputs: { name: 'Text' }, output: 'Text', prompt: 'Hi $name' },
    },
    verdict: BUILD_PIPE_SPEC_RESPONSE,
    problems: [],
  },
  lint: {
    operationId: 'lint_mthds_v1_lint_post',
    tag: 'tools',
    summary: 'Lint Mthds',
    description: 'The diagnostics of one `.mthds` text; a malformed text is a 200 (docs/formatting.md#lint).',
    bodyId: 'LintRequest',
    example: { content: EXAMPLE_BUNDLE },
    verdict: LINT_RESPONSE,
    problems: [],
  },
  format: {
    operationId: 'format_mthds_v1_format_post',
    tag: 'tools',
    summary: 'Format Mthds',
    description: 'One `.mthds` text, formatted; `options` sets taplo formatting keys (docs/formatting.md).',
    bodyId: 'FormatRequest',
    example: { content: 'domain="greet"\nmain_pipe =  "greet_person"\n' },
    verdict: FORMAT_RESPONSE,
    problems: [],
  },
  legacyValidate: {
    operationId: 'validate_mthds_validate_post',
    tag: 'legacy',
    summary: 'Validate Mthds (older route)',
    description:
      'The verdict of `/v1/validate` on one bundle sent as `mthds_content`, in the older success body with `mthds_runner_bundle_blueprint`; an invalid bundle is a 422 `ValidateBundleError` problem (spec §4.12). Deprecated: kept for earlier clients (docs/api.md#older-unversioned-routes).',
    deprecated: true,
    bodyId: 'LegacyValidateRequest',
    example: { mthds_content: EXAMPLE_BUNDLE },
    verdict: LEGACY_VALIDATE_RESPONSE,
    problems: ['ValidateBundleError'],
  },
};

/**
 * The diagnostic routes, as the OpenAPI document describes them.
 * @param maxMthdsFileKib - `MAX_MTHDS_FILE_KIB`, the ceiling the request schemas check
 */
export function diagnosticRoutes(maxMthdsFileKib: number): RouteSpec[] {
  return (Object.keys(DIAGNOSTIC_ROUTES) as DiagnosticRoute[]).map((route) => {
    const { bodyId, example, verdict, problems, ...doc } = DIAGNOSTIC_DOCS[route];
    return {
      ...doc,
      method: 'post',
      path: DIAGNOSTIC_ROUTES[route].path,
      body: { id: bodyId, schema: DIAGNOSTIC_ROUTES[route].schema(maxMthdsFileKib), example },
      responses: {
        200: { description: VERDICT_ROUTES.has(route) ? VERDICT : 'The result.', schema: verdict },
      },
      problems: [...DIAGNOSTIC_PROBLEMS, ...problems],
    };
  });
}
