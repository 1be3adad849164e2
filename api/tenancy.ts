/**
 * Organizations and their API keys at the edge (docs/api.md#api-keys): the repositories of the control plane once it
 * is open, and which organization a request acts on.
 *
 * Glossary: the *bootstrap admin* is the deployment principal (`single-tenant`: the bearer of `API_KEY`, or every
 * caller when `AUTH_MODE=none`); it creates organizations and acts on the one a request names (`organization_id`).
 * Any other caller acts on its own organization: its API key's, or its JWT's `org_id` claim.
 */
import { ApiKeys, type ControlPlaneDatabase, Organizations } from '../shared/database/index.js';
import {
  BootstrapAdminRequired,
  OrganizationNotFoundError,
  OrganizationRequired,
  ValidationError,
} from '../shared/errors/index.js';
import { DEPLOYMENT_PRINCIPAL, type Identity } from './middleware/authenticate.js';

/** The control plane's repositories of tenants. */
export interface Tenancy {
  readonly organizations: Organizations;
  readonly apiKeys: ApiKeys;
}

/** How the repositories behave. */
export interface TenancyOptions {
  /** `API_KEYS_MAX_PER_ORGANIZATION`. */
  maxKeysPerOrganization: number;
  /** The clock of expiry, revocation and use, epoch ms. */
  now: () => number;
}

/**
 * The repositories, once the control plane is open.
 * @param database - the control plane, as it opens (its failure stops the process where it is opened)
 * @param options - the per-organization key limit and the clock
 * @returns the repositories; rejects as `database` does
 */
export function openTenancy(database: Promise<ControlPlaneDatabase>, options: TenancyOptions): Promise<Tenancy> {
  const tenancy = database.then((opened) => ({
    organizations: new Organizations(opened),
    apiKeys: new ApiKeys(opened, { maxActivePerOrganization: options.maxKeysPerOrganization, now: options.now }),
  }));
  // The entry point that opened the database reports its failure; this derived promise must not report it again.
  tenancy.catch(() => undefined);
  return tenancy;
}

/**
 * Whether the caller is the bootstrap admin (the deployment principal).
 * @param identity - the authenticated caller
 */
function isBootstrapAdmin(identity: Identity): boolean {
  return identity.userId === DEPLOYMENT_PRINCIPAL;
}

/**
 * Refuse any caller but the bootstrap admin.
 * @param identity - the authenticated caller
 * @throws BootstrapAdminRequired (403) for any other caller
 */
export function requireBootstrapAdmin(identity: Identity): void {
  if (!isBootstrapAdmin(identity))
    throw new BootstrapAdminRequired(
      "Only the bootstrap admin (the deployment's API_KEY) may manage organizations; an organization's API key or token may not.",
    );
}

/**
 * The organization a request acts on: the caller's own, or, for the bootstrap admin, the one it names.
 * @param tenancy - the repositories
 * @param identity - the authenticated caller
 * @param named - the request's `organization_id`, if any
 * @param request - where the request names it, for the detail (`query`, `body`), and whether it creates a key (a JWT
 *   caller's organization is then recorded, named after its id, unless it exists)
 * @returns the organization's id
 * @throws ValidationError (422) when the bootstrap admin names none; OrganizationNotFoundError (404) when the admin
 *   names an unknown one, or another caller names one that is not its own; OrganizationRequired (403) for a caller
 *   that belongs to no organization (a JWT without `org_id`)
 */
export async function actingOrganization(
  tenancy: Tenancy,
  identity: Identity,
  named: string | undefined,
  request: { location: 'query' | 'body'; creates: boolean },
): Promise<string> {
  const own = identity.organizationId;
  if (own !== undefined) {
    if (named !== undefined && named !== own) throw organizationNotFound(named);
    if (request.creates && identity.keyId === undefined) await tenancy.organizations.ensure(own);
    return own;
  }
  if (!isBootstrapAdmin(identity))
    throw new OrganizationRequired(
      'This route acts on the caller’s organization, and your token names none: it needs an org_id claim.',
    );
  if (named === undefined)
    throw new ValidationError(
      `${request.location}.organization_id: required for the bootstrap admin (the organization to act on)`,
    );
  if (!(await tenancy.organizations.find(named))) throw organizationNotFound(named);
  return named;
}

function organizationNotFound(id: string): OrganizationNotFoundError {
  return new OrganizationNotFoundError(`No organization '${id}' is known to this caller.`);
}
