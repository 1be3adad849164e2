/**
 * How a route describes itself: method, path, the zod schemas that validate its request, its success responses and
 * the problems it can answer. The OpenAPI document (`openapi-document.ts`) is generated from these descriptions, one
 * per route the app mounts (`route-registry.ts`); adding a route means adding its description beside its router.
 */
import type { z } from 'zod';
import type { ErrorType } from '../../shared/errors/index.js';
import type { ResponseHeader } from './headers.js';

/** The HTTP methods the API serves. */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A JSON request body. */
export interface RequestBodySpec {
  /** Its name among the document's schemas (`components.schemas`): the reference OpenAPI's name where it has one. */
  id: string;
  /** The schema the route validates the body with (zod; the document renders it as JSON Schema). */
  schema: z.ZodType;
  /** A valid body: prefilled by the reference page's "Try it out", and sent by the tests. */
  example: unknown;
}

/** A success (or redirect) response. */
export interface ResponseSpec {
  description: string;
  /** The body's schema; absent for a response without a body. */
  schema?: z.ZodType;
  /** The body's media type. @defaultValue `application/json` */
  contentType?: string;
  /** Headers the response carries besides `X-Request-ID`. */
  headers?: readonly ResponseHeader[];
}

/**
 * A problem the route can answer (spec §7): an `error_type`, answered with its catalog status, or pinned to another
 * status (an inference error answers by category, e.g. 429 on a provider rate limit).
 */
export type ProblemSpec = ErrorType | { errorType: ErrorType; status: number };

/** One route, as the OpenAPI document describes it. */
export interface RouteSpec {
  method: HttpMethod;
  /** The path, with parameters as OpenAPI writes them (`/v1/runs/{runId}/status`; Express writes `:runId`). */
  path: string;
  /** Stable operation id: the reference OpenAPI's for the routes it has (`execute_v1_execute_post`). */
  operationId: string;
  /** The group the reference page lists it under: the reference OpenAPI's tag where it has the route. */
  tag: string;
  summary: string;
  /** Markdown: what the route does, where docs/ tells more. */
  description: string;
  /** Outside authentication (`/health`, `/ready`, `/`; spec §4.1, §5 rule 4). @defaultValue false */
  public?: boolean;
  /** Cannot fail (spec §4.1): the catch-all 500 is not listed. @defaultValue false */
  infallible?: boolean;
  /** A route of the MTHDS protocol (spec §4 table): marked `x-mthds-protocol`, as the reference does. */
  protocol?: boolean;
  /** An older route kept for earlier clients (spec §4.12): marked `deprecated` in the document. @defaultValue false */
  deprecated?: boolean;
  /** Path parameters, by name. */
  params?: z.ZodObject;
  /** Query parameters, by name. */
  query?: z.ZodObject;
  body?: RequestBodySpec;
  /** Success responses by status. */
  responses: Record<number, ResponseSpec>;
  /**
   * The route's own problems. Those every route shares are added by the document: 401 `Unauthenticated` when
   * authentication is on, 413 `PayloadTooLarge` with a body, the catch-all 500 `InternalServerError` unless
   * {@link RouteSpec.infallible}.
   */
  problems: readonly ProblemSpec[];
}
