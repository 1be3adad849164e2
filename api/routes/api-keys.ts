/**
 * The API keys of an organization, as the hosted Pipelex API serves them (docs/api.md#api-keys):
 * `GET /v1/pipelex-api-keys`, `POST /v1/pipelex-api-keys`, `DELETE /v1/pipelex-api-keys/{keyId}` and
 * `POST /v1/pipelex-api-keys/{keyId}/rotate`. Served only with a control plane.
 *
 * A caller acts on its own organization; the bootstrap admin names one with `organization_id` (query, or body on
 * create). A key of another organization answers exactly as an unknown one: 404 `code: "api_key_not_found"`.
 */
import { Router } from 'express';
import { z } from 'zod';
import { ValidationError } from '../../shared/errors/index.js';
import { apiKeyItem, issuedApiKeyAnswer } from '../../shared/wire/index.js';
import { type JsonBodyLimits, jsonBody } from '../body/json-body.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { API_KEY_LIST, ISSUED_API_KEY } from '../openapi/schemas/tenancy.js';
import { parseRequest } from '../request-schema.js';
import { sendJson } from '../send-json.js';
import { actingOrganization, type Tenancy } from '../tenancy.js';

const ORGANIZATION_ID = z.string().min(1).max(128).meta({
  description:
    'Bootstrap admin only: the organization to act on. Another caller acts on its own organization and may omit it.',
});

const ORGANIZATION_QUERY = z.object({ organization_id: ORGANIZATION_ID.optional() });

const KEY_ID = z.object({ keyId: z.string().meta({ description: 'The key’s id, `key_…`.' }) });

/** Longest key label, in characters. */
const MAX_LABEL_LENGTH = 200;

/** `POST /v1/pipelex-api-keys`: what the handler parses and the document shows. */
const CREATE_KEY_BODY = z
  .object({
    label: z
      .string()
      .trim()
      .min(1)
      .max(MAX_LABEL_LENGTH)
      .meta({ description: 'What the key is for, to tell keys apart.' }),
    expires_at: z.iso
      .datetime({ offset: true })
      .nullish()
      .meta({ description: 'When the key stops verifying (ISO 8601, in the future); absent or null: never.' }),
    organization_id: ORGANIZATION_ID.optional(),
  })
  .meta({ id: 'PipelexApiKeyCreate', description: 'A new API key.' });

/** The problems of a route acting on an organization. */
const ORGANIZATION_PROBLEMS: RouteSpec['problems'] = [
  'ValidationError',
  'OrganizationNotFoundError',
  'OrganizationRequired',
];

/** The four key routes, as the OpenAPI document describes them. */
export const API_KEY_ROUTES: readonly RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/pipelex-api-keys',
    operationId: 'list_pipelex_api_keys_v1_pipelex_api_keys_get',
    tag: 'account',
    summary: 'List API keys',
    description:
      'The live (not revoked) API keys of the caller’s organization, newest first, without their secrets (docs/api.md#api-keys).',
    query: ORGANIZATION_QUERY,
    responses: { 200: { description: 'The keys.', schema: API_KEY_LIST } },
    problems: ORGANIZATION_PROBLEMS,
  },
  {
    method: 'post',
    path: '/v1/pipelex-api-keys',
    operationId: 'create_pipelex_api_key_v1_pipelex_api_keys_post',
    tag: 'account',
    summary: 'Create an API key',
    description:
      'A new `plx_sk_…` key of the caller’s organization. Its plaintext is in this answer only: the runner keeps its SHA-256 digest. 409 `pipelex_api_key_limit_reached` past `API_KEYS_MAX_PER_ORGANIZATION` active keys.',
    body: { id: 'PipelexApiKeyCreate', schema: CREATE_KEY_BODY, example: { label: 'ci', expires_at: null } },
    responses: { 201: { description: 'The key, with its plaintext (shown once).', schema: ISSUED_API_KEY } },
    problems: [...ORGANIZATION_PROBLEMS, 'ApiKeyLimitReachedError'],
  },
  {
    method: 'delete',
    path: '/v1/pipelex-api-keys/{keyId}',
    operationId: 'revoke_pipelex_api_key_v1_pipelex_api_keys__key_id__delete',
    tag: 'account',
    summary: 'Revoke an API key',
    description:
      'Revoke a key of the caller’s organization: refused at once by the store, and within 4 s by every replica (docs/api.md#api-keys).',
    params: KEY_ID,
    query: ORGANIZATION_QUERY,
    responses: { 204: { description: 'Revoked.' } },
    problems: [...ORGANIZATION_PROBLEMS, 'ApiKeyNotFoundError'],
  },
  {
    method: 'post',
    path: '/v1/pipelex-api-keys/{keyId}/rotate',
    operationId: 'rotate_pipelex_api_key_v1_pipelex_api_keys__key_id__rotate_post',
    tag: 'account',
    summary: 'Rotate an API key',
    description:
      'Replace a key by a new one with the same label and expiry, and revoke the old one, in one step. The new plaintext is in this answer only.',
    params: KEY_ID,
    query: ORGANIZATION_QUERY,
    responses: { 201: { description: 'The new key, with its plaintext (shown once).', schema: ISSUED_API_KEY } },
    problems: [...ORGANIZATION_PROBLEMS, 'ApiKeyNotFoundError'],
  },
];

/** What the key routes need. */
export interface ApiKeysRouterOptions extends JsonBodyLimits {
  /** The repositories, once the control plane is open. */
  tenancy: Promise<Tenancy>;
  /** Where a large body is decoded. */
  diagnostics: DiagnosticsPool;
  /** The clock an expiry is checked against, epoch ms. */
  now: () => number;
}

/**
 * Router serving the key routes.
 * @param options - the repositories, the body limits and the clock
 */
export function apiKeysRouter(options: ApiKeysRouterOptions): Router {
  const router = Router();
  const body = jsonBody(options, 'typed', options.diagnostics);
  const queried = (query: unknown) => parseRequest(ORGANIZATION_QUERY, query, 'query').organization_id;
  const keyId = (params: unknown) => parseRequest(KEY_ID, params, 'path').keyId;
  router.get('/v1/pipelex-api-keys', async (req, res) => {
    const tenancy = await options.tenancy;
    const where = { location: 'query', creates: false } as const;
    const organization = await actingOrganization(tenancy, res.locals.identity, queried(req.query), where);
    sendJson(res, 200, { keys: (await tenancy.apiKeys.list(organization)).map(apiKeyItem) });
  });
  router.post('/v1/pipelex-api-keys', body, async (req, res) => {
    const input = parseRequest(CREATE_KEY_BODY, req.body);
    const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
    if (expiresAt !== null && expiresAt.getTime() <= options.now())
      throw new ValidationError('body.expires_at: must lie in the future');
    const tenancy = await options.tenancy;
    const where = { location: 'body', creates: true } as const;
    const organization = await actingOrganization(tenancy, res.locals.identity, input.organization_id, where);
    const issued = await tenancy.apiKeys.create(organization, { label: input.label, expiresAt });
    sendJson(res, 201, issuedApiKeyAnswer(issued));
  });
  router.delete('/v1/pipelex-api-keys/:keyId', async (req, res) => {
    const tenancy = await options.tenancy;
    const where = { location: 'query', creates: false } as const;
    const organization = await actingOrganization(tenancy, res.locals.identity, queried(req.query), where);
    await tenancy.apiKeys.revoke(organization, keyId(req.params));
    res.status(204).end();
  });
  router.post('/v1/pipelex-api-keys/:keyId/rotate', async (req, res) => {
    const tenancy = await options.tenancy;
    const where = { location: 'query', creates: false } as const;
    const organization = await actingOrganization(tenancy, res.locals.identity, queried(req.query), where);
    sendJson(res, 201, issuedApiKeyAnswer(await tenancy.apiKeys.rotate(organization, keyId(req.params))));
  });
  return router;
}
