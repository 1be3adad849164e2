/**
 * `GET /v1/version` (spec §2.11, §4.2): the handshake for feature detection. Like every `/v1` route it is behind
 * authentication when auth is enabled (spec §4.2 lists 401; the reference serves it publicly).
 */
import { Router } from 'express';
import type { z } from 'zod';
import { IMPLEMENTATION_NAME, IMPLEMENTATION_VERSION, PROTOCOL_VERSION } from '../../shared/version.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { VERSION_INFO } from '../openapi/schemas/service.js';
import { sendJson } from '../send-json.js';

/** `GET /v1/version`, as the OpenAPI document describes it. */
export const VERSION_ROUTE: RouteSpec = {
  method: 'get',
  path: '/v1/version',
  operationId: 'get_version_v1_version_get',
  tag: 'discovery',
  summary: 'Get Version',
  description:
    'The handshake for feature detection: the MTHDS protocol version implemented, and which runner answers (`implementation: "mthds-runner"`).',
  protocol: true,
  responses: { 200: { description: 'Version info.', schema: VERSION_INFO } },
  problems: [],
};

/** What the version route reports beside the versions. */
export interface VersionRouterOptions {
  /**
   * The hosted-API extensions this deployment serves (`api_keys`, …; docs/api.md#get-v1version), listed as
   * `extensions` when there is any.
   */
  extensions?: readonly string[];
}

/**
 * Router serving `GET /v1/version`.
 * @param options - the extensions served
 */
export function versionRouter(options: VersionRouterOptions = {}): Router {
  const router = Router();
  const extensions = [...(options.extensions ?? [])];
  router.get(VERSION_ROUTE.path, (_req, res) => {
    const body: z.infer<typeof VERSION_INFO> = {
      protocol_version: PROTOCOL_VERSION,
      runner_version: IMPLEMENTATION_VERSION,
      implementation: IMPLEMENTATION_NAME,
      implementation_version: IMPLEMENTATION_VERSION,
      runtime_version: IMPLEMENTATION_VERSION,
      ...(extensions.length > 0 ? { extensions } : {}),
    };
    sendJson(res, 200, body);
  });
  return router;
}
