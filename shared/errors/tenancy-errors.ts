/**
 * Errors of organizations and their API keys (docs/api.md#api-keys). All are authored by the HTTP layer:
 * `error_domain: "input"`, `retryable: false`, and each carries a `code` (a served route's 404 always does, so clients
 * tell it from "route not served").
 */
import { MthdsError } from './mthds-error.js';

/**
 * 404: no live API key with this id in the caller's organization (code `api_key_not_found`): an unknown id, a revoked
 * key, or another organization's key all answer alike.
 */
export class ApiKeyNotFoundError extends MthdsError {}
/**
 * 404: the bootstrap admin named an organization that does not exist, or an organization's caller named another one
 * (code `organization_not_found`).
 */
export class OrganizationNotFoundError extends MthdsError {}
/**
 * 409: the organization already holds `API_KEYS_MAX_PER_ORGANIZATION` active keys (neither revoked nor expired); revoke
 * one first (code `pipelex_api_key_limit_reached`).
 */
export class ApiKeyLimitReachedError extends MthdsError {}
/** 403: a route only the bootstrap admin (the deployment's `API_KEY`) may call (code `bootstrap_admin_required`). */
export class BootstrapAdminRequired extends MthdsError {}
/**
 * 403: an API-key route called by a caller that belongs to no organization: a JWT without an `org_id` claim (code
 * `organization_required`).
 */
export class OrganizationRequired extends MthdsError {}
