/**
 * `POST /v1/organizations` (docs/api.md#organizations): the bootstrap admin creates an organization, which then gets
 * its API keys (`POST /v1/pipelex-api-keys` with `organization_id`). Served only with a control plane; any other
 * caller is a 403.
 */
import { Router } from 'express';
import { z } from 'zod';
import { organizationAnswer } from '../../shared/wire/index.js';
import { type JsonBodyLimits, jsonBody } from '../body/json-body.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { ORGANIZATION_CREATED } from '../openapi/schemas/tenancy.js';
import { parseRequest } from '../request-schema.js';
import { sendJson } from '../send-json.js';
import { requireBootstrapAdmin, type Tenancy } from '../tenancy.js';

/** `POST /v1/organizations`: what the handler parses and the document shows. */
const CREATE_ORGANIZATION_BODY = z
  .object({ name: z.string().trim().min(1).max(200).meta({ description: 'The organization’s display name.' }) })
  .meta({ id: 'OrganizationCreate', description: 'A new organization.' });

/** `POST /v1/organizations`, as the OpenAPI document describes it. */
export const CREATE_ORGANIZATION_ROUTE: RouteSpec = {
  method: 'post',
  path: '/v1/organizations',
  operationId: 'create_organization_v1_organizations_post',
  tag: 'account',
  summary: 'Create an organization',
  description:
    'Bootstrap admin only (the deployment’s `API_KEY`): a new organization, `org_…`, to which API keys are then issued (docs/api.md#organizations).',
  body: { id: 'OrganizationCreate', schema: CREATE_ORGANIZATION_BODY, example: { name: 'Acme' } },
  responses: { 201: { description: 'The organization.', schema: ORGANIZATION_CREATED } },
  problems: ['ValidationError', 'BootstrapAdminRequired'],
};

/** What the route needs. */
export interface OrganizationsRouterOptions extends JsonBodyLimits {
  /** The repositories, once the control plane is open. */
  tenancy: Promise<Tenancy>;
  /** Where a large body is decoded. */
  diagnostics: DiagnosticsPool;
}

/**
 * Router serving `POST /v1/organizations`.
 * @param options - the repositories and the body limits
 */
export function organizationsRouter(options: OrganizationsRouterOptions): Router {
  const router = Router();
  router.post('/v1/organizations', jsonBody(options, 'typed', options.diagnostics), async (req, res) => {
    requireBootstrapAdmin(res.locals.identity);
    const { name } = parseRequest(CREATE_ORGANIZATION_BODY, req.body);
    const organization = await (await options.tenancy).organizations.create(name);
    sendJson(res, 201, organizationAnswer(organization));
  });
  return router;
}
