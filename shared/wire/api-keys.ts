/**
 * Organizations and API keys in the shapes of the hosted key routes (docs/api.md#api-keys): snake_case members, times
 * as ISO 8601 UTC strings, and a key's plaintext only in the answer that made it.
 */
import type { ApiKey, IssuedApiKey, Organization } from '../database/index.js';

/** A key as `GET /v1/pipelex-api-keys` lists it. */
export interface ApiKeyItem {
  id: string;
  label: string;
  /** The key's first 11 characters (`plx_sk_AbCd`). */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** A key just made (`POST /v1/pipelex-api-keys`, `…/{id}/rotate`): the plaintext, shown once. */
export interface IssuedApiKeyAnswer {
  /** The whole key, `plx_sk_…`. */
  api_key: string;
  id: string;
  label: string;
  prefix: string;
  created_at: string;
}

/** An organization just made (`POST /v1/organizations`). */
export interface OrganizationAnswer {
  org_id: string;
  name: string;
  created_at: string;
}

/** An organization with the settings an operator gives it (`PUT /v1/organizations/{orgId}/inference-rate-share`). */
export interface OrganizationSettingsAnswer extends OrganizationAnswer {
  /** Its own share of each provider rate limit, in (0, 1]; null: the deployment's (`INFERENCE_ORG_RATE_SHARE`). */
  inference_rate_share: number | null;
}

function iso(time: Date | null): string | null {
  return time === null ? null : time.toISOString();
}

/**
 * A listed key.
 * @param key - the key as kept
 */
export function apiKeyItem(key: ApiKey): ApiKeyItem {
  return {
    id: key.id,
    label: key.label,
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
    last_used_at: iso(key.lastUsedAt),
    expires_at: iso(key.expiresAt),
  };
}

/**
 * The answer of a key's creation or rotation.
 * @param key - the key just made, with its plaintext
 */
export function issuedApiKeyAnswer(key: IssuedApiKey): IssuedApiKeyAnswer {
  return {
    api_key: key.secret,
    id: key.id,
    label: key.label,
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
  };
}

/**
 * The answer of an organization's creation.
 * @param organization - the organization just made
 */
export function organizationAnswer(organization: Organization): OrganizationAnswer {
  return { org_id: organization.id, name: organization.name, created_at: organization.createdAt.toISOString() };
}

/** An organization's terms at the dispatch gate, as `PUT /v1/organizations/{orgId}/dispatch-terms` answers them. */
export interface DispatchTermsAnswer {
  org_id: string;
  /** Its share of the run queue (docs/fair-dispatch.md). */
  run_share: number;
  /** The highest `priority` its runs may ask for; null: the deployment's ceiling. */
  priority_ceiling: number | null;
}

/**
 * The answer of a change of an organization's dispatch terms.
 * @param organization - the organization as changed
 */
export function dispatchTermsAnswer(organization: Organization): DispatchTermsAnswer {
  return {
    org_id: organization.id,
    run_share: organization.runShare,
    priority_ceiling: organization.priorityCeiling,
  };
}

/**
 * The answer of a change to an organization's settings.
 * @param organization - the organization as changed
 */
export function organizationSettingsAnswer(organization: Organization): OrganizationSettingsAnswer {
  return { ...organizationAnswer(organization), inference_rate_share: organization.inferenceRateShare };
}
