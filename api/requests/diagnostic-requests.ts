/**
 * The diagnostic and tooling routes as requests a diagnostics thread answers whole: the JSON body is decoded, checked
 * against the route's schema and answered in the thread, so a 16 MiB request costs the event loop only the reading
 * of its bytes (docs/isolation.md#request-bodies). A `method_ref` is the one thing a thread cannot do (the clone
 * cache is the process's): the thread names it, the event loop fetches it and asks again with the package.
 *
 * This module is the table of the routes. Each route's schema and rules are beside it by route family
 * (`validate-request.ts`, `library-requests.ts`, `pipe-io-request.ts`, `build-requests.ts`, `text-requests.ts`, built
 * from the parts of `diagnostic-route.ts`); the work itself is in `offload/` by route family (the build routes' legacy envelope in
 * `offload/legacy-build-operations.ts`, the agent routes in `offload/definition-operations.ts`).
 *
 * @see spec §4.5–4.10; docs/api.md#post-v1validate, docs/crate.md, docs/codegen.md#post-v1codegen,
 * docs/codegen.md#post-v1buildinputs, docs/codegen.md#post-v1buildoutput, docs/codegen.md#post-v1buildrunner,
 * docs/api.md#post-v1lint, docs/codegen.md#definition-specs, docs/api.md#post-v1pipe-io
 */
import { decodeJsonBody } from '../body/decode-json.js';
import {
  buildConceptRoute,
  buildInputsRoute,
  buildOutputRoute,
  buildPipeSpecRoute,
  buildRunnerRoute,
} from './build-requests.js';
import type { DiagnosticAnswer, DiagnosticContext, DiagnosticDefinition } from './diagnostic-route.js';
import { legacyValidateRoute } from './legacy-validate-request.js';
import { codegenRoute, resolveRoute } from './library-requests.js';
import { pipeIoRoute } from './pipe-io-request.js';
import { formatRoute, lintRoute } from './text-requests.js';
import { validateRoute } from './validate-request.js';

/** A diagnostic request as the event loop hands it to a thread: plain, structured-clonable data. */
export interface DiagnosticRequest extends DiagnosticContext {
  /** Which route (a key of {@link DIAGNOSTIC_ROUTES}). */
  route: DiagnosticRoute;
}

/** The diagnostic routes by name, each with its path, request schema and handler. */
export const DIAGNOSTIC_ROUTES = {
  validate: { path: '/v1/validate', ...validateRoute },
  resolve: { path: '/v1/resolve', ...resolveRoute },
  codegen: { path: '/v1/codegen', ...codegenRoute },
  pipeIo: { path: '/v1/pipe-io', ...pipeIoRoute },
  buildInputs: { path: '/v1/build/inputs', ...buildInputsRoute },
  buildOutput: { path: '/v1/build/output', ...buildOutputRoute },
  buildRunner: { path: '/v1/build/runner', ...buildRunnerRoute },
  buildConcept: { path: '/v1/build/concept', ...buildConceptRoute },
  buildPipeSpec: { path: '/v1/build/pipe-spec', ...buildPipeSpecRoute },
  lint: { path: '/v1/lint', ...lintRoute },
  format: { path: '/v1/format', ...formatRoute },
  legacyValidate: { path: '/validate', ...legacyValidateRoute },
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
