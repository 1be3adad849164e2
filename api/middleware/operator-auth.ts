/**
 * Authentication of the operator routes: the queue dashboard (`/admin/*`) and `/metrics` (docs/run-ownership.md
 * "Operators"). They need the operator credential, which no tenant holds: `OPERATOR_API_KEY` (compared in constant
 * time) in every mode, or, with `AUTH_MODE=jwt`, a token whose `roles` claim lists `operator`. A valid tenant
 * credential (the API key, a JWT without that role) is a 403 `OperatorCredentialRequired`; a missing or invalid one a
 * 401. With `AUTH_MODE=none` and no `OPERATOR_API_KEY` the operator routes are open, like every route (development
 * only); set the key and they need it.
 *
 * The dashboard is usable from a browser: besides `Authorization: Bearer <credential>`, it takes HTTP Basic
 * credentials whose password is the credential (the user name is ignored), and its 401 challenges with `Basic`, so a
 * browser asks for them in its own sign-in dialog and sends them with the dashboard's page and API calls. Basic
 * credentials are accepted there only.
 *
 * A browser attaches Basic credentials to every request to the path, including requests another site makes it send,
 * so a state-changing request (any method but `GET`, `HEAD`, `OPTIONS`) with them must come from the dashboard itself:
 * one whose `Sec-Fetch-Site` names another site, or whose `Origin` is not this host, is refused with 403
 * `CrossOriginRequestRefused` (deploy/README.md#the-queue-dashboard-in-a-browser).
 */
import type { Request, RequestHandler } from 'express';
import type { AuthSettings } from '../../shared/config/index.js';
import { CrossOriginRequestRefused, OperatorCredentialRequired, Unauthenticated } from '../../shared/errors/index.js';
import { bearerToken, OPERATOR_ROLE, type StoreKeyLookup, sameSecret, tokenVerifier } from './authenticate.js';

/** The dashboard's 401 challenges: Basic for browsers (RFC 7617), Bearer for API clients. */
const BROWSER_CHALLENGE = 'Basic realm="MTHDS queue dashboard", charset="UTF-8", Bearer';

const BASIC = /^basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** `Sec-Fetch-Site` values of a request the page itself made, or one the user typed. */
const OWN_SITE = new Set(['same-origin', 'none']);

/** What the operator routes are guarded with. */
export interface OperatorAuthOptions {
  /** The tenants' authentication (spec §5). */
  auth: AuthSettings;
  /** `OPERATOR_API_KEY`, when configured. */
  operatorApiKey: string | undefined;
  /** Also take HTTP Basic credentials and challenge with `Basic` (the dashboard, for browsers). */
  browser: boolean;
  /** Looks organizations' API keys up (a tenant credential too); absent without a control plane. */
  storeKeys?: StoreKeyLookup | undefined;
}

/** The password of Basic credentials, or undefined when the header is not Basic. */
function basicPassword(header: string | undefined): string | undefined {
  const match = header === undefined ? null : BASIC.exec(header);
  if (!match?.[1]) return undefined;
  const credentials = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = credentials.indexOf(':');
  if (colon < 0) throw new Unauthenticated('Malformed Basic credentials: expected base64 of `user:password`.');
  return credentials.slice(colon + 1);
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

function refuseCrossSite(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const site = req.get('sec-fetch-site');
  if (site !== undefined && !OWN_SITE.has(site)) {
    throw new CrossOriginRequestRefused(
      `Refused: a ${req.method} with browser credentials sent from another site (Sec-Fetch-Site: ${site}).`,
    );
  }
  const origin = req.get('origin');
  if (origin !== undefined && hostOf(origin) !== req.get('host')) {
    throw new CrossOriginRequestRefused(
      `Refused: a ${req.method} with browser credentials from origin ${origin}, not this host.`,
    );
  }
}

/** What the caller of an operator route must send, as this deployment is configured. */
function operatorCredentials(options: OperatorAuthOptions): string {
  const role = `a JWT whose roles claim lists "${OPERATOR_ROLE}"`;
  if (options.operatorApiKey !== undefined)
    return options.auth.mode === 'jwt' ? `OPERATOR_API_KEY or ${role}` : 'OPERATOR_API_KEY';
  return options.auth.mode === 'jwt'
    ? role
    : 'none is configured on this deployment (set OPERATOR_API_KEY on the server)';
}

/**
 * Build the authentication middleware of an operator route.
 * @param options - the tenants' auth settings, the operator key, and whether browsers use the route
 * @returns a middleware that lets operators through
 * @throws Unauthenticated (401, `WWW-Authenticate: Bearer`, or `Basic …, Bearer` for a browser route) through `next` on
 *   missing, malformed or invalid credentials; OperatorCredentialRequired (403) on a valid tenant credential;
 *   CrossOriginRequestRefused (403) on a state-changing request with Basic credentials from another site
 */
export function operatorAuthenticate(options: OperatorAuthOptions): RequestHandler {
  const { auth, operatorApiKey, browser } = options;
  if (auth.mode === 'none' && operatorApiKey === undefined) return (_req, _res, next) => next();
  const verifyTenant = auth.mode === 'none' ? undefined : tokenVerifier(auth, options.storeKeys);
  const challenge = browser ? BROWSER_CHALLENGE : 'Bearer';
  const required = operatorCredentials(options);
  return async (req, _res, next) => {
    try {
      const header = req.headers.authorization;
      const password = browser ? basicPassword(header) : undefined;
      if (password !== undefined) refuseCrossSite(req);
      const presented = password ?? bearerToken(header);
      if (operatorApiKey !== undefined && sameSecret(presented, operatorApiKey)) return next();
      if (!verifyTenant) throw new Unauthenticated(`Invalid operator credential: send ${required}.`);
      if ((await verifyTenant(presented)).operator) return next();
    } catch (error) {
      if (error instanceof Unauthenticated) throw new Unauthenticated(error.message, { challenge });
      throw error;
    }
    throw new OperatorCredentialRequired(
      `The operator routes (/admin/*, /metrics) need the operator credential, which a tenant credential (the API key, or a JWT without the "${OPERATOR_ROLE}" role) is not. Operator credential: ${required}.`,
    );
  };
}
