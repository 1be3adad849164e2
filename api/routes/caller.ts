/**
 * Who is calling (docs/api.md#the-caller): `GET /v1/me`, and the credential checks of the hosted API's clients,
 * `GET /v1/auth/verify` and `GET /platform/v1/auth/verify` (the n8n node's credential test), which answer 200 for any
 * valid credential and 401 otherwise. Served only with a control plane. The `/platform` route sits outside `/v1`, so
 * it carries the authentication middleware itself.
 */
import { type RequestHandler, Router } from 'express';
import type { z } from 'zod';
import type { Identity } from '../middleware/authenticate.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { AUTH_VERIFIED, ME } from '../openapi/schemas/tenancy.js';
import { sendJson } from '../send-json.js';

/** `GET /v1/me`, as the OpenAPI document describes it. */
export const ME_ROUTE: RouteSpec = {
  method: 'get',
  path: '/v1/me',
  operationId: 'get_me_v1_me_get',
  tag: 'account',
  summary: 'Get the caller',
  description:
    'Who is calling: `user_id` is the API key’s id for an organization’s key, the JWT’s `user_id`, else `single-tenant`; this runner keeps no e-mail addresses or names (docs/api.md#the-caller).',
  responses: { 200: { description: 'The caller.', schema: ME } },
  problems: [],
};

const VERIFY_DESCRIPTION =
  'Answers 200 `{valid: true, org_id}` for any valid credential (401 otherwise): the credential test of the hosted API’s clients.';

/** `GET /v1/auth/verify` and `GET /platform/v1/auth/verify`, as the OpenAPI document describes them. */
export const AUTH_VERIFY_ROUTES: readonly RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/auth/verify',
    operationId: 'verify_auth_v1_auth_verify_get',
    tag: 'account',
    summary: 'Verify a credential',
    description: VERIFY_DESCRIPTION,
    responses: { 200: { description: 'The credential is valid.', schema: AUTH_VERIFIED } },
    problems: [],
  },
  {
    method: 'get',
    path: '/platform/v1/auth/verify',
    operationId: 'verify_auth_platform_v1_auth_verify_get',
    tag: 'account',
    summary: 'Verify a credential (platform path)',
    description: `${VERIFY_DESCRIPTION} The path the n8n node tests its credential on.`,
    responses: { 200: { description: 'The credential is valid.', schema: AUTH_VERIFIED } },
    problems: [],
  },
];

function me(identity: Identity): z.infer<typeof ME> {
  return { email: null, user_id: identity.keyId ?? identity.userId, full_name: null };
}

function verified(identity: Identity): z.infer<typeof AUTH_VERIFIED> {
  return { valid: true, org_id: identity.organizationId ?? null };
}

/**
 * Router serving the caller's routes.
 * @param authenticate - the authentication middleware of `/v1`, applied to the `/platform` path as well
 */
export function callerRouter(authenticate: RequestHandler): Router {
  const router = Router();
  router.get('/v1/me', (_req, res) => sendJson(res, 200, me(res.locals.identity)));
  router.get('/v1/auth/verify', (_req, res) => sendJson(res, 200, verified(res.locals.identity)));
  router.get('/platform/v1/auth/verify', authenticate, (_req, res) =>
    sendJson(res, 200, verified(res.locals.identity)),
  );
  return router;
}
