/**
 * The parts every diagnostic route is made of: its request schema (built once per `MAX_MTHDS_FILE_KIB`), its handler
 * (which checks the body against that schema first) and its answer, and the two shapes most routes share: the closure
 * routes (`files` or `method_ref`) and the build routes that also take the legacy envelope
 * (docs/isolation.md#request-bodies).
 */
import type { z } from 'zod';
import type { ModelReferenceCatalog } from '../../shared/mthds/index.js';
import type { RawJsonBody } from '../body/decode-json.js';
import type { JsonLimits } from '../body/json-scan.js';
import type { ClosureInput } from '../offload/closure-library.js';
import type { EncodedJson } from '../offload/encode-json.js';
import type { ModePolicy } from '../orchestration.js';
import { parseRequest } from '../request-schema.js';
import {
  type Closure,
  type ClosureSelector,
  closureOf,
  closureRequestSchema,
  type MethodToFetch,
} from './closure-selector.js';
import { isLegacyBuildEnvelope } from './legacy-build-envelope.js';

/** What a diagnostic request is answered with: the route's 200 body, or a `method_ref` to fetch first. */
export type DiagnosticAnswer = { body: EncodedJson } | { fetch: MethodToFetch };

/**
 * What a diagnostic route's handler reads of its request: a `DiagnosticRequest` (`diagnostic-requests.ts`) but for the
 * route's name.
 */
export interface DiagnosticContext {
  /** The undecoded body; undefined when the request has none. */
  body: RawJsonBody | undefined;
  /** `MAX_JSON_DEPTH`, `MAX_JSON_VALUES` and `MAX_MTHDS_FILE_KIB`. */
  limits: JsonLimits & { maxMthdsFileKib: number };
  /** The orchestration modes the deployment accepts (`/v1/validate` checks its `orchestration_mode`). */
  modes: ModePolicy;
  /** The package of the request's `method_ref`, or the stored method of its `method_id`, on the second asking. */
  fetched?: Closure;
  /** The serving model deck's names: `/v1/validate` refuses unknown `model` references with them. */
  models?: ModelReferenceCatalog;
}

type Handler = (value: unknown, request: DiagnosticContext) => Promise<DiagnosticAnswer>;

/**
 * A diagnostic route's request schema, for a deployment's `MAX_MTHDS_FILE_KIB`: what its handler validates the body
 * with, and what the OpenAPI document renders.
 */
type DiagnosticSchema = (maxMthdsFileKib: number) => z.ZodType;

/** A diagnostic route: its request schema, and its handler (which checks the body against that schema first). */
export interface DiagnosticDefinition {
  schema: DiagnosticSchema;
  handle: Handler;
}

/**
 * A request schema built once per `MAX_MTHDS_FILE_KIB` (one value per process): building a zod schema costs more than
 * checking a small body against it.
 * @param build - the schema for a limit
 */
export function perFileLimit<T extends z.ZodType>(
  build: (maxMthdsFileKib: number) => T,
): (maxMthdsFileKib: number) => T {
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

/**
 * A route's 200 answer.
 * @param body - the encoded body, or its promise
 */
export async function answer(body: EncodedJson | Promise<EncodedJson>): Promise<DiagnosticAnswer> {
  return { body: await body };
}

/**
 * A closure route: the route's fields beside the selector, and its operation once the closure is known.
 * @param extra - the route's own fields
 * @param operate - the work, from the checked body and its closure
 * @param refine - the route's own cross-field rules
 * @param byId - whether the selector also takes `method_id` (docs/methods.md#method_id)
 */
export function closureRoute<T extends z.ZodRawShape>(
  extra: T,
  operate: (
    body: z.infer<ReturnType<typeof closureRequestSchema<T>>>,
    closure: ClosureInput,
  ) => EncodedJson | Promise<EncodedJson>,
  refine?: (body: z.infer<ReturnType<typeof closureRequestSchema<T>>>, context: z.RefinementCtx) => void,
  byId = false,
): DiagnosticDefinition {
  const schema = perFileLimit((maxMthdsFileKib) => {
    const closure = closureRequestSchema(extra, maxMthdsFileKib, byId);
    return refine ? closure.superRefine(refine) : closure;
  });
  return {
    schema,
    handle: async (value, request) => {
      const body = parseRequest(schema(request.limits.maxMthdsFileKib), value);
      const closure = closureOf(body as ClosureSelector, request.fetched, 'tooling');
      if (!('sources' in closure)) return { fetch: closure };
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
export function withLegacyEnvelope(
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
