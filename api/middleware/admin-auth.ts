/**
 * Authentication of the queue dashboard (`/admin/queues`), usable from a browser. Besides the API's
 * `Authorization: Bearer <token>`, it takes HTTP Basic credentials whose password is that token (the API key, or a JWT
 * in `jwt` mode; the user name is ignored), and its 401 challenges with `Basic`, so a browser asks for them in its
 * own sign-in dialog and sends them with the dashboard's page and API calls. Basic credentials are accepted on this
 * path only: `/v1` routes keep Bearer alone.
 *
 * A browser attaches Basic credentials to every request to the path, including requests another site makes it send,
 * so a state-changing request (any method but `GET`, `HEAD`, `OPTIONS`) with them must come from the dashboard itself:
 * one whose `Sec-Fetch-Site` names another site, or whose `Origin` is not this host, is refused with 403
 * `CrossOriginRequestRefused` (deploy/README.md "The queue dashboard in a browser").
 */
import type { Request, RequestHandler } from 'express';
import type { AuthSettings } from '../../shared/config/index.js';
import { CrossOriginRequestRefused, Unauthenticated } from '../../shared/errors/index.js';
import { authenticate, bearerToken, tokenVerifier } from './authenticate.js';

/** The dashboard's 401 challenges: Basic for browsers (RFC 7617), Bearer for API clients. */
const ADMIN_CHALLENGE = 'Basic realm="MTHDS queue dashboard", charset="UTF-8", Bearer';

const BASIC = /^basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** `Sec-Fetch-Site` values of a request the page itself made, or one the user typed. */
const OWN_SITE = new Set(['same-origin', 'none']);

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

/**
 * Build the dashboard's authentication middleware.
 * @param auth - the validated auth settings; with `none` the dashboard is open like every route
 * @returns a middleware that sets `res.locals.identity`
 * @throws Unauthenticated (401, `WWW-Authenticate: Basic …, Bearer`) through `next` on missing, malformed or wrong
 *   credentials; CrossOriginRequestRefused (403) on a state-changing request with Basic credentials from another site
 */
export function adminAuthenticate(auth: AuthSettings): RequestHandler {
  if (auth.mode === 'none') return authenticate(auth);
  const verify = tokenVerifier(auth);
  return async (req, res, next) => {
    const header = req.headers.authorization;
    try {
      const password = basicPassword(header);
      if (password !== undefined) refuseCrossSite(req);
      res.locals.identity = await verify(password ?? bearerToken(header));
    } catch (error) {
      if (error instanceof Unauthenticated) throw new Unauthenticated(error.message, { challenge: ADMIN_CHALLENGE });
      throw error;
    }
    next();
  };
}
