/**
 * The routes an app serves, recorded as the app factory mounts their routers (the run routes, mounted first, are
 * recorded where the API reference lists them: docs/architecture.md#request-path): the source of the OpenAPI document
 * (`GET /v1/openapi.json`), so the document lists exactly what this deployment serves (the lifecycle routes only in
 * queue mode, `/v1/models` only with a model deck, `/metrics` only when enabled).
 */
import type { RouteSpec } from './route-spec.js';

/** Route descriptions in the order the API reference lists them. */
export class RouteRegistry {
  readonly #routes: RouteSpec[] = [];

  /**
   * Record what a router serves and hand it back, for `app.use(registry.describe(router, ROUTES))`.
   * @param handler - the router (or any handler) being mounted
   * @param routes - the descriptions of the routes it serves
   * @returns `handler`, unchanged
   */
  describe<T>(handler: T, routes: readonly RouteSpec[]): T {
    this.#routes.push(...routes);
    return handler;
  }

  /** Every route recorded so far. */
  get routes(): readonly RouteSpec[] {
    return this.#routes;
  }
}
