/**
 * `POST /v1/organizations` (docs/api.md#organizations): the bootstrap admin creates an organization, which then gets
 * its API keys (`POST /v1/pipelex-api-keys` with `organization_id`); `PUT /v1/organizations/{orgId}/inference-rate-share`: it gives an
 * organization its own share of the provider rate limits (docs/inference.md#organization-shares). Served only with a
 * control plane; any other caller is a 403.
 */
import { Router } from 'express';
import { z } from 'zod';
import { OrganizationNotFoundError } from '../../shared/errors/index.js';
import { dispatchTermsAnswer, organizationAnswer, organizationSettingsAnswer } from '../../shared/wire/index.js';
import { type JsonBodyLimits, jsonBody } from '../body/json-body.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { DISPATCH_TERMS, ORGANIZATION_CREATED, ORGANIZATION_SETTINGS } from '../openapi/schemas/tenancy.js';
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

/** `PUT /v1/organizations/{orgId}/inference-rate-share`: the organization named. */
const ORGANIZATION_ID = z.object({ orgId: z.string().meta({ description: 'The organization’s id, `org_…`.' }) });

/** `PUT /v1/organizations/{orgId}/inference-rate-share`: what the handler parses and the document shows. */
const RATE_SHARE_BODY = z
  .object({
    inference_rate_share: z.number().gt(0).lte(1).nullable().meta({
      description:
        'Its own share of each provider rate limit, in (0, 1] (1: no cap); null gives it the deployment’s `INFERENCE_ORG_RATE_SHARE` again.',
    }),
  })
  .meta({ id: 'OrganizationRateShare', description: 'The share of the provider rate limits to give an organization.' });

/** `PUT /v1/organizations/{orgId}/inference-rate-share`, as the OpenAPI document describes it. */
export const RATE_SHARE_ROUTE: RouteSpec = {
  method: 'put',
  path: '/v1/organizations/{orgId}/inference-rate-share',
  operationId: 'set_organization_rate_share_v1_organizations__org_id__inference_rate_share_put',
  tag: 'account',
  summary: 'Set an organization’s share of the provider rate limits',
  description:
    'Bootstrap admin only: the share of each provider rate limit the organization’s runs may use, in place of the deployment’s `INFERENCE_ORG_RATE_SHARE`; it applies to the runs accepted from then on, within a few seconds on every replica (docs/inference.md#organization-shares).',
  params: ORGANIZATION_ID,
  body: { id: 'OrganizationRateShare', schema: RATE_SHARE_BODY, example: { inference_rate_share: 0.5 } },
  responses: { 200: { description: 'The organization as changed.', schema: ORGANIZATION_SETTINGS } },
  problems: ['ValidationError', 'BootstrapAdminRequired', 'OrganizationNotFoundError'],
};

/** `PUT /v1/organizations/{orgId}/dispatch-terms`: what the handler parses and the document shows. */
const DISPATCH_TERMS_BODY = z
  .strictObject({
    run_share: z.number().int().min(1).max(1000).meta({
      description: 'Its share of the run queue: its in-flight limit is `RUN_ORG_IN_FLIGHT_LIMIT` times this.',
    }),
    priority_ceiling: z.number().int().min(0).max(10).nullable().meta({
      description: 'The highest `priority` its runs may ask for; null: the deployment’s `RUN_PRIORITY_CEILING`.',
    }),
  })
  .meta({
    id: 'OrganizationDispatchTermsSet',
    description: 'An organization’s terms at the dispatch gate, both given.',
  });

/** `PUT /v1/organizations/{orgId}/dispatch-terms`, as the OpenAPI document describes it. */
export const DISPATCH_TERMS_ROUTE: RouteSpec = {
  method: 'put',
  path: '/v1/organizations/{orgId}/dispatch-terms',
  operationId: 'set_organization_dispatch_terms_v1_organizations__org_id__dispatch_terms_put',
  tag: 'account',
  summary: 'Set an organization’s dispatch terms',
  description:
    'Bootstrap admin only: an organization’s share of the run queue and its priority ceiling (docs/fair-dispatch.md). Processes apply a change within 10 s.',
  params: ORGANIZATION_ID,
  body: {
    id: 'OrganizationDispatchTermsSet',
    schema: DISPATCH_TERMS_BODY,
    example: { run_share: 3, priority_ceiling: null },
  },
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
 * Router serving `POST /v1/organizations`, `PUT /v1/organizations/{orgId}/dispatch-terms` and
 * `PUT /v1/organizations/{orgId}/inference-rate-share`.
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
  router.put(
    '/v1/organizations/:orgId/dispatch-terms',
    jsonBody(options, 'typed', options.diagnostics),
    async (req, res) => {
      requireBootstrapAdmin(res.locals.identity);
      const { orgId } = parseRequest(ORGANIZATION_ID, req.params, 'path');
      const terms = parseRequest(DISPATCH_TERMS_BODY, req.body);
      const organization = await (await options.tenancy).organizations.setDispatchTerms(orgId, {
        runShare: terms.run_share,
        priorityCeiling: terms.priority_ceiling,
      });
      if (!organization) throw new OrganizationNotFoundError(`No organization '${orgId}' exists.`);
      sendJson(res, 200, dispatchTermsAnswer(organization));
    },
  );
  router.put(
    '/v1/organizations/:orgId/inference-rate-share',
    jsonBody(options, 'typed', options.diagnostics),
    async (req, res) => {
      requireBootstrapAdmin(res.locals.identity);
      const { orgId } = parseRequest(ORGANIZATION_ID, req.params, 'path');
      const { inference_rate_share: share } = parseRequest(RATE_SHARE_BODY, req.body);
      const organization = await (await options.tenancy).organizations.setInferenceRateShare(orgId, share);
      if (!organization) throw new OrganizationNotFoundError(`No organization '${orgId}' exists.`);
      sendJson(res, 200, organizationSettingsAnswer(organization));
    },
  );
  return router;
}
