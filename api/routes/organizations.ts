/**
 * `POST /v1/organizations` (docs/api.md#organizations): the bootstrap admin creates an organization, which then gets
 * its API keys (`POST /v1/pipelex-api-keys` with `organization_id`). Served only with a control plane; any other
 * caller is a 403.
 */
import { Router } from 'express';
import { z } from 'zod';
import { OrganizationNotFoundError } from '../../shared/errors/index.js';
import { dispatchTermsAnswer, organizationAnswer } from '../../shared/wire/index.js';
import { type JsonBodyLimits, jsonBody } from '../body/json-body.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { DISPATCH_TERMS, ORGANIZATION_CREATED } from '../openapi/schemas/tenancy.js';
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

const ORG_ID = z.object({ orgId: z.string().min(1).max(64).meta({ description: 'The organization’s id, `org_…`.' }) });

/** `PATCH /v1/organizations/{orgId}`: what the handler parses and the document shows. */
const DISPATCH_TERMS_BODY = z
  .strictObject({
    run_share: z.number().int().min(1).max(1000).optional().meta({
      description: 'Its share of the run queue: its in-flight limit is `RUN_ORG_IN_FLIGHT_LIMIT` times this.',
    }),
    priority_ceiling: z.number().int().min(0).max(10).nullable().optional().meta({
      description: 'The highest `priority` its runs may ask for; null: the deployment’s `RUN_PRIORITY_CEILING`.',
    }),
  })
  .meta({ id: 'OrganizationDispatchTermsUpdate', description: 'The terms to change (absent ones are kept).' });

/** `PATCH /v1/organizations/{orgId}`, as the OpenAPI document describes it. */
export const DISPATCH_TERMS_ROUTE: RouteSpec = {
  method: 'patch',
  path: '/v1/organizations/{orgId}',
  operationId: 'update_organization_dispatch_terms_v1_organizations__org_id__patch',
  tag: 'account',
  summary: 'Change an organization’s dispatch terms',
  description:
    'Bootstrap admin only: an organization’s share of the run queue and its priority ceiling (docs/fair-dispatch.md). Processes apply a change within 10 s.',
  params: ORG_ID,
  body: { id: 'OrganizationDispatchTermsUpdate', schema: DISPATCH_TERMS_BODY, example: { run_share: 3 } },
  responses: { 200: { description: 'The organization’s terms as changed.', schema: DISPATCH_TERMS } },
  problems: ['ValidationError', 'BootstrapAdminRequired', 'OrganizationNotFoundError'],
};

/** What the route needs. */
export interface OrganizationsRouterOptions extends JsonBodyLimits {
  /** The repositories, once the control plane is open. */
  tenancy: Promise<Tenancy>;
  /** Where a large body is decoded. */
  diagnostics: DiagnosticsPool;
}

/**
 * Router serving `POST /v1/organizations` and `PATCH /v1/organizations/{orgId}`.
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
  router.patch('/v1/organizations/:orgId', jsonBody(options, 'typed', options.diagnostics), async (req, res) => {
    requireBootstrapAdmin(res.locals.identity);
    const { orgId } = parseRequest(ORG_ID, req.params, 'path');
    const terms = parseRequest(DISPATCH_TERMS_BODY, req.body);
    const organization = await (await options.tenancy).organizations.setDispatchTerms(orgId, {
      ...(terms.run_share === undefined ? {} : { runShare: terms.run_share }),
      ...(terms.priority_ceiling === undefined ? {} : { priorityCeiling: terms.priority_ceiling }),
    });
    if (!organization) throw new OrganizationNotFoundError(`No organization has the id '${orgId}'.`);
    sendJson(res, 200, dispatchTermsAnswer(organization));
  });
  return router;
}
