/**
 * The diagnostic and tooling routes as requests a diagnostics thread answers whole: the JSON body is decoded, checked
 * against the route's schema and answered in the thread, so a 16 MiB request costs the event loop only the reading
 * of its bytes (docs/isolation.md#request-bodies). A `method_ref` is the one thing a thread cannot do (the clone
 * cache is the process's): the thread names it, the event loop fetches it and asks again with the package.
 *
 * Each route's schema and rules are here, by route; the work itself is in `offload/` by route family (the
 * build routes' legacy envelope in `offload/legacy-build-operations.ts`, the agent routes in
 * `offload/definition-operations.ts`).
 *
 * @see spec §4.5–4.10; docs/api.md#post-v1validate, docs/crate.md, docs/codegen.md#post-v1codegen,
 * docs/codegen.md#post-v1buildinputs, docs/codegen.md#post-v1buildoutput, docs/codegen.md#post-v1buildrunner,
 * docs/api.md#post-v1lint, docs/codegen.md#definition-specs
 */
import { z } from 'zod';
import { CODEGEN_TARGETS } from '../../shared/codegen/index.js';
import type { ModelReferenceCatalog } from '../../shared/mthds/index.js';
import { FORMAT_OPTIONS } from '../../shared/tooling/index.js';
import { decodeJsonBody, type RawJsonBody } from '../body/decode-json.js';
import type { JsonLimits } from '../body/json-scan.js';
import { buildInputsOperation, buildOutputOperation, buildRunnerOperation } from '../offload/build-operations.js';
import type { ClosureInput } from '../offload/closure-library.js';
import { buildConceptOperation, buildPipeSpecOperation } from '../offload/definition-operations.js';
import type { EncodedJson } from '../offload/encode-json.js';
import {
  legacyBuildInputsOperation,
  legacyBuildOutputOperation,
  legacyBuildRunnerOperation,
} from '../offload/legacy-build-operations.js';
import { codegenOperation, resolveOperation } from '../offload/library-operations.js';
import { formatOperation, lintOperation } from '../offload/text-operations.js';
import { validateOperation } from '../offload/validate-operation.js';
import { checkOrchestrationMode, type ModePolicy } from '../orchestration.js';
import { parseRequest } from '../request-schema.js';
import {
  type Closure,
  type ClosureSelector,
  closureOf,
  closureRequestSchema,
  type MethodToFetch,
  VALIDATION_MODE,
} from './closure-selector.js';
import { BUILD_CONCEPT_REQUEST, BUILD_PIPE_SPEC_REQUEST } from './definition-requests.js';
import { isLegacyBuildEnvelope, legacyBuildOutputRequest, legacyBuildRequest } from './legacy-build-envelope.js';
import { mthdsContent } from './mthds-content.js';

/** What a diagnostic request is answered with: the route's 200 body, or a `method_ref` to fetch first. */
export type DiagnosticAnswer = { body: EncodedJson } | { fetch: MethodToFetch };

/** A diagnostic request as the event loop hands it to a thread: plain, structured-clonable data. */
export interface DiagnosticRequest {
  /** Which route (a key of {@link DIAGNOSTIC_ROUTES}). */
  route: DiagnosticRoute;
  /** The undecoded body; undefined when the request has none. */
  body: RawJsonBody | undefined;
  /** `MAX_JSON_DEPTH`, `MAX_JSON_VALUES` and `MAX_MTHDS_FILE_KIB`. */
  limits: JsonLimits & { maxMthdsFileKib: number };
  /** The orchestration modes the deployment accepts (`/v1/validate` checks its `orchestration_mode`). */
  modes: ModePolicy;
  /** The package of the request's `method_ref`, on the second asking. */
  fetched?: Closure;
  /** The serving model deck's names: `/v1/validate` refuses unknown `model` references with them. */
  models?: ModelReferenceCatalog;
}

type Handler = (value: unknown, request: DiagnosticRequest) => Promise<DiagnosticAnswer>;

/**
 * A diagnostic route's request schema, for a deployment's `MAX_MTHDS_FILE_KIB`: what its handler validates the body
 * with, and what the OpenAPI document renders.
 */
type DiagnosticSchema = (maxMthdsFileKib: number) => z.ZodType;

/** A diagnostic route: its request schema, and its handler (which checks the body against that schema first). */
interface DiagnosticDefinition {
  schema: DiagnosticSchema;
  handle: Handler;
}

const PIPE_REF = z.string().min(1).max(256).nullish();

/**
 * A request schema built once per `MAX_MTHDS_FILE_KIB` (one value per process): building a zod schema costs more than
 * checking a small body against it.
 * @param build - the schema for a limit
 */
function perFileLimit<T extends z.ZodType>(build: (maxMthdsFileKib: number) => T): (maxMthdsFileKib: number) => T {
  const built = new Map<number, T>();
  return (maxMthdsFileKib) => {
    let schema = built.get(maxMthdsFileKib);
    if (!schema) {
      schema = build(maxMthdsFileKib);
      built.set(maxMthdsFileKib, schema);
    }
    return schema;
  };
}

async function answer(body: EncodedJson | Promise<EncodedJson>): Promise<DiagnosticAnswer> {
  return { body: await body };
}

/**
 * A closure route: the route's fields beside the selector, and its operation once the closure is known.
 * @param extra - the route's own fields
 * @param operate - the work, from the checked body and its closure
 * @param refine - the route's own cross-field rules
 */
function closureRoute<T extends z.ZodRawShape>(
  extra: T,
  operate: (
    body: z.infer<ReturnType<typeof closureRequestSchema<T>>>,
    closure: ClosureInput,
  ) => EncodedJson | Promise<EncodedJson>,
  refine?: (body: z.infer<ReturnType<typeof closureRequestSchema<T>>>, context: z.RefinementCtx) => void,
): DiagnosticDefinition {
  const schema = perFileLimit((maxMthdsFileKib) => {
    const closure = closureRequestSchema(extra, maxMthdsFileKib);
    return refine ? closure.superRefine(refine) : closure;
  });
  return {
    schema,
    handle: async (value, request) => {
      const body = parseRequest(schema(request.limits.maxMthdsFileKib), value);
      const closure = closureOf(body as ClosureSelector, request.fetched, 'tooling');
      if ('methodRef' in closure) return { fetch: closure };
      return answer(operate(body, request.models ? { ...closure, models: request.models } : closure));
    },
  };
}

/**
 * A build route that also answers the legacy envelope `{mthds_contents, pipe_code}` (`legacy-build-envelope.ts`); the
 * spec's request stays its documented schema.
 * @param route - the route on the spec's request
 * @param legacy - the route on the legacy envelope, from the decoded body and `MAX_MTHDS_FILE_KIB`
 */
function withLegacyEnvelope(
  route: DiagnosticDefinition,
  legacy: (value: unknown, maxMthdsFileKib: number) => EncodedJson | Promise<EncodedJson>,
): DiagnosticDefinition {
  return {
    schema: route.schema,
    handle: (value, request) =>
      isLegacyBuildEnvelope(value)
        ? answer(legacy(value, request.limits.maxMthdsFileKib))
        : route.handle(value, request),
  };
}

const validateSchema = perFileLimit((maxMthdsFileKib) =>
  z
    .object({
      mthds_contents: z.array(mthdsContent(maxMthdsFileKib)).min(1).max(16).nullish(),
      mthds_sources: z.array(z.string()).nullish(),
      method_ref: z.string().min(1).max(512).nullish(),
      views: z.array(z.string()).nullish(),
      orchestration_mode: z.string().nullish(),
      allow_signatures: z.boolean().nullish(),
      validation_mode: VALIDATION_MODE,
    })
    .superRefine((body, context) => {
      const hasContents = body.mthds_contents !== null && body.mthds_contents !== undefined;
      const hasRef = body.method_ref !== null && body.method_ref !== undefined;
      if (hasContents === hasRef) {
        context.addIssue({
          code: 'custom',
          message: 'Value error, provide exactly one of `mthds_contents` or `method_ref`',
        });
      }
      if (hasRef && body.mthds_sources) {
        context.addIssue({
          code: 'custom',
          path: ['mthds_sources'],
          message:
            "mthds_sources accompanies inline mthds_contents; a method_ref's sources are the package's own file names",
        });
      }
      if (hasContents && body.mthds_sources && body.mthds_sources.length !== body.mthds_contents!.length) {
        context.addIssue({
          code: 'custom',
          path: ['mthds_sources'],
          message: `mthds_sources has ${body.mthds_sources.length} entries but mthds_contents has ${body.mthds_contents!.length}; send one source name per content, in the same order`,
        });
      }
    }),
);

/**
 * `POST /v1/validate` (spec §4.5): static validation and the dry-run sweep. Unknown members (e.g. `render`) are
 * accepted and ignored; a forbidden or unregistered `orchestration_mode` is refused before the verdict; a
 * `method_ref` package's manifest `main_pipe` is the default pipe (docs/methods.md#shaping-and-gates).
 */
const validate: DiagnosticDefinition = {
  schema: validateSchema,
  handle: async (value, request) => {
    const body = parseRequest(validateSchema(request.limits.maxMthdsFileKib), value);
    checkOrchestrationMode(body.orchestration_mode, request.modes);
    const options = {
      allowSignatures: body.allow_signatures ?? false,
      views: body.views ?? [],
      mode: body.validation_mode ?? 'compat',
      ...(request.models ? { models: request.models } : {}),
    } as const;
    if (body.method_ref) {
      if (!request.fetched) return { fetch: { methodRef: body.method_ref, purpose: 'run' } };
      return answer(
        validateOperation({
          sources: request.fetched.sources,
          ...options,
          defaultPipe: request.fetched.manifestMainPipe,
          bundleFiles: request.fetched.bundleFiles ?? [],
          ...(request.fetched.exports ? { exports: request.fetched.exports } : {}),
          ...(request.fetched.libraryFiles ? { libraryFiles: request.fetched.libraryFiles } : {}),
        }),
      );
    }
    const sources = (body.mthds_contents ?? []).map((content, index) => ({
      content,
      source: body.mthds_sources?.[index] ?? null,
    }));
    return answer(validateOperation({ sources, ...options, defaultPipe: null, bundleFiles: null }));
  },
};

/**
 * `POST /v1/resolve` (spec §4.6; docs/crate.md): `ResolveValidReport` `{is_valid: true, crate, message}` or
 * `CrateInvalidReport`; static (no dry-run sweep).
 */
const resolve = closureRoute({ validation_mode: VALIDATION_MODE }, (body, closure) =>
  resolveOperation({ ...closure, mode: body.validation_mode ?? 'compat' }),
);

/**
 * `POST /v1/codegen` (spec §4.7; docs/codegen.md#post-v1codegen): the `types` projection; `pipe_ref` is refused with
 * `types`.
 */
const codegen = closureRoute(
  { kind: z.enum(['types']), target: z.enum(CODEGEN_TARGETS), pipe_ref: z.string().max(512).nullish() },
  (body, closure) => codegenOperation({ ...closure, kind: body.kind, target: body.target }),
  (body, context) => {
    if (body.kind === 'types' && body.pipe_ref !== null && body.pipe_ref !== undefined) {
      context.addIssue({
        code: 'custom',
        message: "Value error, pipe_ref is not accepted for kind='types' (a concept-set-wide projection)",
      });
    }
  },
);

/** `POST /v1/build/inputs` (spec §4.8; docs/codegen.md#post-v1buildinputs), and its legacy envelope. */
const buildInputs = withLegacyEnvelope(
  closureRoute(
    { pipe_ref: PIPE_REF, format: z.enum(['json', 'toml']).default('json'), explicit: z.boolean().default(false) },
    (body, closure) =>
      buildInputsOperation({
        ...closure,
        pipeRef: body.pipe_ref ?? null,
        format: body.format,
        explicit: body.explicit,
      }),
  ),
  (value, maxKib) => legacyBuildInputsOperation(legacyBuildRequest(value, maxKib)),
);

/** `POST /v1/build/output` (spec §4.9; docs/codegen.md#post-v1buildoutput), and its legacy envelope. */
const buildOutput = withLegacyEnvelope(
  closureRoute(
    { pipe_ref: PIPE_REF, format: z.enum(['schema', 'json', 'python']).default('schema') },
    (body, closure) => buildOutputOperation({ ...closure, pipeRef: body.pipe_ref ?? null, format: body.format }),
  ),
  (value, maxKib) => legacyBuildOutputOperation(legacyBuildOutputRequest(value, maxKib)),
);

/**
 * `POST /v1/build/runner` (spec §4.10; docs/codegen.md#post-v1buildrunner): the dry-run sweep scoped to the pipe, then
 * its script;
 * and its legacy envelope.
 */
const buildRunner = withLegacyEnvelope(
  closureRoute({ pipe_ref: PIPE_REF, allow_signatures: z.boolean().default(false) }, (body, closure) =>
    buildRunnerOperation({ ...closure, pipeRef: body.pipe_ref ?? null, allowSignatures: body.allow_signatures }),
  ),
  (value, maxKib) => legacyBuildRunnerOperation(legacyBuildRequest(value, maxKib)),
);

/** `POST /v1/build/concept` (docs/codegen.md#definition-specs): a concept spec as TOML. */
const buildConcept: DiagnosticDefinition = {
  schema: () => BUILD_CONCEPT_REQUEST,
  handle: async (value) => answer(buildConceptOperation(parseRequest(BUILD_CONCEPT_REQUEST, value).spec)),
};

/** `POST /v1/build/pipe-spec` (docs/codegen.md#definition-specs): a pipe spec as TOML. */
const buildPipeSpec: DiagnosticDefinition = {
  schema: () => BUILD_PIPE_SPEC_REQUEST,
  handle: async (value) => {
    const body = parseRequest(BUILD_PIPE_SPEC_REQUEST, value);
    return answer(buildPipeSpecOperation(body.pipe_type, body.spec));
  },
};

const lintSchema = perFileLimit((maxMthdsFileKib) =>
  z.object({ content: mthdsContent(maxMthdsFileKib), source: z.string().max(1024).nullish() }),
);

/** `POST /v1/lint` (docs/api.md#post-v1lint): 200 `{diagnostics}` for any text. */
const lint: DiagnosticDefinition = {
  schema: lintSchema,
  handle: async (value, request) => {
    const body = parseRequest(lintSchema(request.limits.maxMthdsFileKib), value);
    return answer(lintOperation({ content: body.content }));
  },
};

const formatSchema = perFileLimit((maxMthdsFileKib) =>
  z.object({ content: mthdsContent(maxMthdsFileKib), options: FORMAT_OPTIONS.nullish() }),
);

/** `POST /v1/format` (docs/api.md#post-v1lint): 200 `{formatted, changed, diagnostics}`; a bad option is 422. */
const format: DiagnosticDefinition = {
  schema: formatSchema,
  handle: async (value, request) => {
    const body = parseRequest(formatSchema(request.limits.maxMthdsFileKib), value);
    return answer(formatOperation({ content: body.content, options: body.options ?? null }));
  },
};

/** The diagnostic routes by name, each with its path, request schema and handler. */
export const DIAGNOSTIC_ROUTES = {
  validate: { path: '/v1/validate', ...validate },
  resolve: { path: '/v1/resolve', ...resolve },
  codegen: { path: '/v1/codegen', ...codegen },
  buildInputs: { path: '/v1/build/inputs', ...buildInputs },
  buildOutput: { path: '/v1/build/output', ...buildOutput },
  buildRunner: { path: '/v1/build/runner', ...buildRunner },
  buildConcept: { path: '/v1/build/concept', ...buildConcept },
  buildPipeSpec: { path: '/v1/build/pipe-spec', ...buildPipeSpec },
  lint: { path: '/v1/lint', ...lint },
  format: { path: '/v1/format', ...format },
} as const satisfies Record<string, DiagnosticDefinition & { path: string }>;

/** The name of a diagnostic route. */
export type DiagnosticRoute = keyof typeof DIAGNOSTIC_ROUTES;

/**
 * Answer a diagnostic request (in a diagnostics thread).
 * @param request - the route, its raw body, limits, mode policy and any fetched package
 * @returns the route's 200 body, encoded, or the `method_ref` to fetch and ask again with
 * @throws the route's typed errors with their problem documents: ValidationError (422) for a malformed, too deep,
 *   too large (`MAX_JSON_VALUES`) or schema-failing body and for one holding a lone UTF-16 surrogate;
 *   OrchestrationModeOverrideForbidden (403) and MissingOrchestratorError (500) from `/v1/validate`'s mode check; the
 *   operations' own errors (e.g. PipeNotFoundError 422)
 */
export async function answerDiagnostic(request: DiagnosticRequest): Promise<DiagnosticAnswer> {
  const value = decodeJsonBody(request.body, request.limits, 'typed');
  return DIAGNOSTIC_ROUTES[request.route].handle(value, request);
}
