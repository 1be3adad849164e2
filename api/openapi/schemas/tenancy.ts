/**
 * Bodies of the routes of organizations, API keys and the caller's identity (docs/api.md#api-keys), as the OpenAPI
 * document describes them. Members follow the hosted Pipelex API's shapes, which its SDK reads.
 */
import { z } from 'zod';

const TIME = z.string().meta({ description: 'ISO 8601, UTC.' });

/** A key as listed: never its plaintext. */
const API_KEY_ITEM = z
  .object({
    id: z.string().meta({ description: 'The key’s id, `key_…`.' }),
    label: z.string(),
    prefix: z.string().meta({ description: 'The key’s first 11 characters, to tell keys apart (`plx_sk_AbCd`).' }),
    created_at: TIME,
    last_used_at: TIME.nullable().meta({ description: 'When it last authenticated a request, to the minute.' }),
    expires_at: TIME.nullable().meta({ description: 'When it stops verifying; null for never.' }),
  })
  .meta({ id: 'PipelexApiKey', description: 'An API key of the caller’s organization.' });

/** `GET /v1/pipelex-api-keys`. */
export const API_KEY_LIST = z
  .object({ keys: z.array(API_KEY_ITEM).meta({ description: 'Live keys (not revoked), newest first.' }) })
  .meta({ id: 'PipelexApiKeyList', description: 'The organization’s API keys.' });

/** `POST /v1/pipelex-api-keys` and `POST /v1/pipelex-api-keys/{id}/rotate`. */
export const ISSUED_API_KEY = z
  .object({
    api_key: z.string().meta({ description: 'The whole key, `plx_sk_…`: shown this once, never stored.' }),
    id: z.string(),
    label: z.string(),
    prefix: z.string(),
    created_at: TIME,
  })
  .meta({ id: 'PipelexApiKeyCreated', description: 'A key just made, with its plaintext.' });

/** `POST /v1/organizations`. */
export const ORGANIZATION_CREATED = z
  .object({
    org_id: z.string().meta({ description: 'The organization’s id, `org_…`.' }),
    name: z.string(),
    created_at: TIME,
  })
  .meta({ id: 'OrganizationCreated', description: 'An organization just made.' });

/** `PUT /v1/organizations/{orgId}/dispatch-terms`. */
export const DISPATCH_TERMS = z
  .object({
    org_id: z.string(),
    run_share: z.number().int().meta({ description: 'Its share of the run queue (docs/fair-dispatch.md).' }),
    priority_ceiling: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The highest `priority` its runs may ask for; null: the deployment’s ceiling.' }),
  })
  .meta({ id: 'OrganizationDispatchTerms', description: 'An organization’s terms at the dispatch gate.' });

/** `PUT /v1/organizations/{orgId}/inference-rate-share`. */
export const ORGANIZATION_SETTINGS = ORGANIZATION_CREATED.extend({
  inference_rate_share: z.number().nullable().meta({
    description:
      'Its own share of each provider rate limit, in (0, 1]; null: the deployment’s `INFERENCE_ORG_RATE_SHARE` (docs/inference.md#organization-shares).',
  }),
}).meta({ id: 'OrganizationSettings', description: 'An organization and the settings an operator gave it.' });

/** `GET /v1/me`. */
export const ME = z
  .object({
    email: z.string().nullable().meta({ description: 'Always null: this runner keeps no e-mail addresses.' }),
    user_id: z.string().meta({
      description:
        'Who is calling: the API key’s id for an organization’s key, the JWT’s `user_id`, else `single-tenant` (the deployment principal).',
    }),
    full_name: z.string().nullable().meta({ description: 'Always null: this runner keeps no names.' }),
  })
  .meta({ id: 'PipelexMe', description: 'The caller.' });

/** `GET /v1/auth/verify` and `GET /platform/v1/auth/verify`. */
export const AUTH_VERIFIED = z
  .object({
    valid: z.literal(true),
    org_id: z.string().nullable().meta({ description: 'The caller’s organization; null when it has none.' }),
  })
  .meta({ id: 'AuthVerifyResponse', description: 'The credential is valid.' });
