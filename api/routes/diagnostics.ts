/**
 * The diagnostic and tooling routes (spec §4.5–4.10; docs/api.md#post-v1validate, docs/crate.md,
 * docs/codegen.md#post-v1codegen, docs/codegen.md#post-v1buildinputs, docs/codegen.md#post-v1buildoutput,
 * docs/codegen.md#post-v1buildrunner, docs/api.md#post-v1lint, docs/codegen.md#definition-specs,
 * docs/api.md#post-v1pipe-io): `/v1/validate`, `/v1/resolve`, `/v1/codegen`, `/v1/pipe-io`,
 * `/v1/build/{inputs,output,runner}` (with their legacy envelope), `/v1/lint`, `/v1/format`, and the
 * agent routes `/v1/build/{concept,pipe-spec}`. Any verdict, valid or invalid, is 200; non-2xx only when no verdict
 * could be produced.
 *
 * The event loop only reads each body and sends the answer: decoding, the schema, the verdict and its serialisation
 * run in the diagnostics pool (`requests/diagnostic-requests.ts`; docs/isolation.md#request-bodies). The loop's
 * one other task is the git fetch of a `method_ref`, or the catalog lookup of a `method_id`, between the thread's two
 * askings (an answer asked twice is never kept in the answer cache: a stored method changes under its id). What the OpenAPI document says
 * of each route is in `diagnostic-route-specs.ts`.
 */
import { type RequestHandler, Router } from 'express';
import type { MethodFetcher } from '../../shared/methods/index.js';
import type { ModelReferenceCatalog } from '../../shared/mthds/index.js';
import type { RawJsonBody } from '../body/decode-json.js';
import { rawBodyOf, readBody } from '../body/read-body.js';
import type { MethodCatalog } from '../method-catalog.js';
import type { Identity } from '../middleware/authenticate.js';
import { AnswerCache } from '../offload/answer-cache.js';
import { clientSignal } from '../offload/client-signal.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { EncodedJson } from '../offload/encode-json.js';
import type { Orchestration } from '../orchestration.js';
import type { Closure, MethodToFetch } from '../requests/closure-selector.js';
import { DIAGNOSTIC_ROUTES, type DiagnosticRequest, type DiagnosticRoute } from '../requests/diagnostic-requests.js';
import { sendEncodedJson } from '../send-json.js';
import { storedMethodSources } from '../stored-method-sources.js';

/** What the diagnostic routes need. */
export interface DiagnosticsRouterOptions {
  /** Largest body, in bytes (`MAX_REQUEST_BODY_MIB` × 1 MiB). */
  maxBodyBytes: number;
  /** `MAX_JSON_DEPTH`, the deepest JSON body accepted. */
  maxJsonDepth: number;
  /** `MAX_JSON_VALUES`, the most values a JSON body may hold. */
  maxJsonValues: number;
  /** `MAX_MTHDS_FILE_KIB`, the ceiling of each `.mthds` text. */
  maxMthdsFileKib: number;
  /** The deployment's orchestration (`/v1/validate` refuses a forbidden or unregistered `orchestration_mode`). */
  orchestration: Orchestration;
  /** Where every request is answered. */
  diagnostics: DiagnosticsPool;
  /** Fetches `method_ref` packages. */
  methodFetcher: MethodFetcher;
  /** The serving model deck's names: `/v1/validate` refuses unknown `model` references with them. */
  models?: ModelReferenceCatalog;
  /** Where answers are kept by request content (`DIAGNOSTIC_CACHE_MIB`). */
  answers: AnswerCache;
  /** The methods catalog a `method_id` names, when this deployment serves one (docs/methods.md#method_id). */
  catalog?: Promise<MethodCatalog> | undefined;
}

/**
 * What a thread asked for: the package of a `method_ref`, fetched, or the stored method of a `method_id`, looked up in
 * the caller's catalog (docs/methods.md#method_id).
 */
async function fetchClosure(
  fetch: MethodToFetch,
  options: DiagnosticsRouterOptions,
  identity: Identity,
): Promise<Closure> {
  if ('methodId' in fetch) {
    const stored = await storedMethodSources(options.catalog, identity, fetch.methodId, fetch.purpose);
    return { sources: stored.sources, manifestMainPipe: null };
  }
  const fetched = await options.methodFetcher.fetch(fetch.methodRef, fetch.purpose);
  return {
    sources: fetched.sources,
    manifestMainPipe: fetched.mainPipe,
    bundleFiles: [...fetched.libraryFiles.keys()].sort(),
    exports: fetched.exports,
    libraryFiles: fetched.libraryFiles,
  };
}

/**
 * Answers a diagnostic request from its undecoded body, for a caller: the answer cache, the diagnostics pool, and the
 * fetch of a `method_ref` or lookup of a `method_id` between the pool's two askings.
 * @param route - which route
 * @param body - the undecoded body; undefined for none
 * @param identity - the caller (its catalog, its cache entries)
 * @param signal - aborts the pool's work (the client went away)
 * @returns the route's 200 body, encoded
 * @throws what {@link diagnosticsRouter}'s routes answer as problems
 */
export type DiagnosticAnswerer = (
  route: DiagnosticRoute,
  body: RawJsonBody | undefined,
  identity: Identity,
  signal: AbortSignal | undefined,
) => Promise<EncodedJson>;

/**
 * The answerer of the diagnostic routes, shared with the MCP endpoint's tools (docs/mcp.md#generic-tools).
 * @param options - body limits, `MAX_MTHDS_FILE_KIB`, orchestration, diagnostics pool, method fetcher, answer cache
 */
export function diagnosticAnswerer(options: DiagnosticsRouterOptions): DiagnosticAnswerer {
  const deployment = JSON.stringify([
    options.maxJsonDepth,
    options.maxJsonValues,
    options.maxMthdsFileKib,
    options.models ?? null,
  ]);
  return async (route, body, identity, signal) => {
    const request: DiagnosticRequest = {
      route,
      body,
      limits: {
        maxJsonDepth: options.maxJsonDepth,
        maxJsonValues: options.maxJsonValues,
        maxMthdsFileKib: options.maxMthdsFileKib,
      },
      modes: options.orchestration.modePolicy(),
      ...(options.models ? { models: options.models } : {}),
    };
    const key = AnswerCache.key({
      route,
      owner: identity.userId,
      context: `${deployment}${JSON.stringify(request.modes)}`,
      body: request.body,
    });
    const kept = options.answers.get(key);
    if (kept) return kept;
    let answer = await options.diagnostics.run('request', request, signal);
    if ('body' in answer) options.answers.set(key, answer.body);
    else {
      const fetched = await fetchClosure(answer.fetch, options, identity);
      answer = await options.diagnostics.run('request', { ...request, fetched }, signal);
    }
    if ('fetch' in answer) throw new Error(`diagnostic route ${route} asked for a second fetch`);
    return answer.body;
  };
}

function handler(route: DiagnosticRoute, answer: DiagnosticAnswerer): RequestHandler {
  return async (req, res) => {
    const body = await answer(route, rawBodyOf(req.body), res.locals.identity as Identity, clientSignal(res));
    sendEncodedJson(res, 200, body);
  };
}

/**
 * Router serving the eleven diagnostic routes.
 * @param options - body limits, `MAX_MTHDS_FILE_KIB`, orchestration, diagnostics pool, method fetcher
 * @throws (through the problem handler) PayloadTooLarge 413; the routes' 422s; ServerBusyError 503 and
 *   ComputeBudgetExceededError 422 from the pool; whatever the fetcher throws for a `method_ref` (501 for a registry
 *   form, 422 / 404 for a failed fetch); for a `method_id`, 404 `not_found`, 409 `method_being_deleted`, 422 without a
 *   catalog (docs/methods.md#method_id)
 */
export function diagnosticsRouter(options: DiagnosticsRouterOptions): Router {
  const router = Router();
  const read = readBody(options.maxBodyBytes, 'typed');
  const answer = diagnosticAnswerer(options);
  for (const [route, { path }] of Object.entries(DIAGNOSTIC_ROUTES) as [DiagnosticRoute, { path: string }][]) {
    router.post(path, read, handler(route, answer));
  }
  return router;
}
