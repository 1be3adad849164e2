/**
 * Bearer authentication (spec §5): `none`, `api_key` (constant-time comparison) or `jwt` (HS256, verified with jose).
 *
 * Every failure is 401 `Unauthenticated` with `WWW-Authenticate: Bearer`; the detail says whether the header was
 * missing, the token wrong, or the token expired. The caller's identity lands in `res.locals.identity`: its own id
 * (the owner of the runs it starts), the storage scopes it may use, and whether its token grants the operator role
 * (docs/run-ownership.md).
 *
 * A JWT's `user_id` must be one path-safe segment (the storage-scope segment rule: `[A-Za-z0-9_-]`, at most
 * {@link MAX_USER_ID_LENGTH} characters), checked here and nowhere else, before any other claim: a token whose
 * `user_id` holds a space, a homoglyph or any other character is a 401 naming it, never a run that fails later. Its
 * optional `org_id` claim names the caller's organization under the same rule.
 *
 * With a control plane, a bearer token starting `plx_sk_` is an API key of an organization, verified against the
 * store in `api_key` and `jwt` modes ({@link StoreKeyLookup}); a key that does not verify is refused exactly as a
 * wrong token of the mode is (docs/api.md#api-keys).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import { z } from 'zod';
import type { AuthSettings } from '../../shared/config/index.js';
import { API_KEY_PREFIX } from '../../shared/database/index.js';
import { Unauthenticated } from '../../shared/errors/index.js';
import { STORAGE_SEGMENT_PATTERN } from '../../shared/storage/object-key.js';
import { STORAGE_SCOPE } from '../requests/storage-scope.js';

/** Who is calling (docs/api.md#authentication; docs/run-ownership.md). */
export interface Identity {
  /**
   * The caller's own id (spec §2.3), owner of the runs it starts: the token's `user_id` claim in `jwt` mode, the
   * organization's id for an organization's API key, `single-tenant` (the deployment principal) when no identity is
   * bound.
   */
  userId: string;
  /**
   * Storage scopes the caller may use besides those starting with its own id (spec §5 rule 5): `any` for the
   * deployment principal; for a `jwt` caller, the prefixes its token's `storage_scopes` claim grants (none without it).
   */
  storageScopes: 'any' | readonly string[];
  /** Whether the caller's JWT lists the `operator` role in its `roles` claim (docs/run-ownership.md#operators). */
  operator: boolean;
  /**
   * The caller's organization (docs/api.md#api-keys): the organization of its API key, or its JWT's `org_id` claim;
   * absent for the deployment principal and for a JWT without the claim.
   */
  organizationId?: string;
  /** The id of the API key the caller presented (`key_…`); absent for any other credential. */
  keyId?: string;
}

/** The id of the deployment principal: every caller when no identity is bound, and the bootstrap admin. */
export const DEPLOYMENT_PRINCIPAL = 'single-tenant';

/** The identity of every caller when authentication binds none: the deployment principal, which owns every scope. */
const SINGLE_TENANT: Identity = { userId: DEPLOYMENT_PRINCIPAL, storageScopes: 'any', operator: false };

/** Longest JWT `user_id`, in characters: it is a storage-scope segment and a part of object paths. */
const MAX_USER_ID_LENGTH = 128;

/** The role a JWT's `roles` claim lists to make its bearer an operator (docs/run-ownership.md#operators). */
export const OPERATOR_ROLE = 'operator';

/** Most roles a token's `roles` claim may list, and the longest role. */
const MAX_ROLES = 32;
const MAX_ROLE_LENGTH = 64;

/** The `roles` claim: the roles the token's issuer grants its bearer. */
const ROLES_CLAIM = z.array(z.string().min(1).max(MAX_ROLE_LENGTH)).max(MAX_ROLES).optional();

/** Most storage-scope prefixes a token's `storage_scopes` claim may list. */
const MAX_GRANTED_SCOPES = 64;

/** The trusted `storage_scopes` claim: scope prefixes the token's issuer grants the caller (docs/run-ownership.md). */
const STORAGE_SCOPES_CLAIM = z.array(STORAGE_SCOPE).max(MAX_GRANTED_SCOPES).optional();

const BEARER = /^bearer\s+(\S+)\s*$/i;
/** The first character of a string outside one storage-scope segment. */
const NOT_IN_SEGMENT = /[^A-Za-z0-9_-]/u;

/**
 * The token of an `Authorization: Bearer <token>` header.
 * @param header - the `Authorization` header, if any
 * @returns the token
 * @throws Unauthenticated (401) when the header is missing or not a bearer token
 */
export function bearerToken(header: string | undefined): string {
  const match = header === undefined ? null : BEARER.exec(header);
  if (!match?.[1])
    throw new Unauthenticated('Missing or malformed Authorization header: send `Authorization: Bearer <token>`.');
  return match[1];
}

/**
 * Whether a presented secret is the expected one, compared in constant time (SHA-256 digests of both, so neither
 * length nor content shows in the timing).
 * @param presented - what the caller sent
 * @param expected - the configured secret
 */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

async function verifyJwt(token: string, secret: Uint8Array): Promise<Identity> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new Unauthenticated('Token expired: obtain a new token.');
    throw new Unauthenticated("Invalid token: the JWT does not verify with this deployment's HS256 secret.");
  }
  const userId = payload['user_id'];
  if (userId === undefined || userId === '') throw new Unauthenticated('Invalid token: missing user_id claim.');
  const problem = typeof userId === 'string' ? userIdProblem(userId) : 'is not a string';
  if (typeof userId !== 'string' || problem !== undefined) {
    throw new Unauthenticated(
      `Invalid token: user_id claim ${problem}; it must be one path-safe segment of 1 to ${MAX_USER_ID_LENGTH} characters A-Z, a-z, 0-9, '_' or '-' (it names the caller's storage scope).`,
    );
  }
  if (userId === SINGLE_TENANT.userId) {
    throw new Unauthenticated(`Invalid token: user_id claim must not be the reserved '${SINGLE_TENANT.userId}' value.`);
  }
  const granted = STORAGE_SCOPES_CLAIM.safeParse(payload['storage_scopes']);
  if (!granted.success) {
    throw new Unauthenticated(
      `Invalid token: storage_scopes claim must be a list of at most ${MAX_GRANTED_SCOPES} storage scopes (1 to 3 path-safe segments each).`,
    );
  }
  const roles = ROLES_CLAIM.safeParse(payload['roles']);
  if (!roles.success) {
    throw new Unauthenticated(
      `Invalid token: roles claim must be a list of at most ${MAX_ROLES} role names (1 to ${MAX_ROLE_LENGTH} characters each).`,
    );
  }
  const organizationId = organizationClaim(payload['org_id']);
  return {
    userId,
    storageScopes: granted.data ?? [],
    operator: roles.data?.includes(OPERATOR_ROLE) ?? false,
    ...(organizationId === undefined ? {} : { organizationId }),
  };
}

/**
 * The organization a JWT's `org_id` claim names (docs/run-ownership.md#who-owns-a-run): one path-safe segment, as a
 * `user_id` is, since it owns the runs of the organization's API keys.
 * @returns the id, or undefined when the claim is absent
 * @throws Unauthenticated (401) naming what is wrong with a malformed claim
 */
function organizationClaim(orgId: unknown): string | undefined {
  if (orgId === undefined) return undefined;
  const problem = typeof orgId === 'string' ? userIdProblem(orgId) : 'is not a string';
  if (typeof orgId !== 'string' || problem !== undefined || orgId === DEPLOYMENT_PRINCIPAL) {
    throw new Unauthenticated(
      `Invalid token: org_id claim ${problem ?? `must not be the reserved '${DEPLOYMENT_PRINCIPAL}' value`}; it must be one path-safe segment of 1 to ${MAX_USER_ID_LENGTH} characters A-Z, a-z, 0-9, '_' or '-'.`,
    );
  }
  return orgId;
}

/**
 * What is wrong with a `user_id` claim, against the one rule (one storage-scope segment, at most
 * {@link MAX_USER_ID_LENGTH} characters).
 * @returns a clause naming the problem (the offending character as a code point), or undefined when it is valid
 */
function userIdProblem(userId: string): string | undefined {
  if (userId.length > MAX_USER_ID_LENGTH) return `has ${userId.length} characters`;
  if (STORAGE_SEGMENT_PATTERN.test(userId)) return undefined;
  const match = NOT_IN_SEGMENT.exec(userId);
  const codePoint = (match?.[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `holds U+${codePoint} at index ${match?.index ?? 0}`;
}

/** Verifies a presented token and answers who presents it. */
export type TokenVerifier = (token: string) => Identity | Promise<Identity>;

/**
 * Looks a presented API key (`plx_sk_…`) up in the control plane.
 * @returns the identity of its organization, or undefined when no active key is this one
 */
export type StoreKeyLookup = (token: string) => Promise<Identity | undefined>;

/**
 * The token check of a mode that binds a secret: the API key (constant-time comparison) or an HS256 JWT, and, with a
 * control plane, the API keys of its organizations.
 * @param auth - the validated auth settings of an `api_key` or `jwt` mode
 * @param storeKeys - looks `plx_sk_…` tokens up in the control plane; absent without one
 * @returns a verifier that throws (or rejects with) Unauthenticated (401) on a wrong or expired token, or a token whose
 *   `user_id`, `org_id`, `storage_scopes` or `roles` claim is malformed
 * @see spec §5
 */
export function tokenVerifier(
  auth: Exclude<AuthSettings, { mode: 'none' }>,
  storeKeys?: StoreKeyLookup,
): TokenVerifier {
  const verifyModeToken = modeTokenVerifier(auth);
  if (!storeKeys) return verifyModeToken;
  return async (token) => {
    // The deployment's API_KEY is compared first (in constant time), whatever it looks like.
    if (auth.mode === 'api_key' && sameSecret(token, auth.apiKey)) return SINGLE_TENANT;
    if (token.startsWith(API_KEY_PREFIX)) {
      const identity = await storeKeys(token);
      if (identity) return identity;
    }
    return verifyModeToken(token);
  };
}

function modeTokenVerifier(auth: Exclude<AuthSettings, { mode: 'none' }>): TokenVerifier {
  if (auth.mode === 'api_key') {
    return (token) => {
      if (!sameSecret(token, auth.apiKey)) throw new Unauthenticated('Invalid authentication token.');
      return SINGLE_TENANT;
    };
  }
  const secret = new TextEncoder().encode(auth.jwtSecret);
  return (token) => verifyJwt(token, secret);
}

/**
 * Build the authentication middleware for a mode.
 * @param auth - the validated auth settings (a mode that needs a secret always carries it)
 * @param storeKeys - looks `plx_sk_…` tokens up in the control plane; absent without one
 * @throws Unauthenticated (401) through `next` on a missing, malformed, wrong or expired token, or a token whose
 *   `user_id`, `org_id`, `storage_scopes` or `roles` claim is malformed
 * @see spec §5
 */
export function authenticate(auth: AuthSettings, storeKeys?: StoreKeyLookup): RequestHandler {
  if (auth.mode === 'none') {
    return (_req, res, next) => {
      res.locals.identity = SINGLE_TENANT;
      next();
    };
  }
  const verify = tokenVerifier(auth, storeKeys);
  return async (req, res, next) => {
    res.locals.identity = await verify(bearerToken(req.headers.authorization));
    next();
  };
}
