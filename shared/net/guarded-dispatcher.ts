/**
 * The dispatch-time half of the SSRF guard: undici dispatchers that check every request they send, the first and each
 * hop of a followed redirect alike, at two points:
 *
 * - each dispatched URL, before anything is resolved or connected, by the same URL rule as the caller's URL
 *   ({@link outboundUrlProblem}: scheme, IP literals, cloud-metadata and `localhost` names), so a `Location` naming
 *   `metadata.google.internal` is refused by name exactly as it would be as the first URL, never looked up in DNS;
 * - each connection, in the agent's connector: an IP literal host is checked with {@link addressProblem} before the
 *   socket opens (Node skips `lookup` for literals); a name is resolved by the `lookup` hook, every address checked
 *   with {@link resolvedProblem}, and only checked addresses handed to the socket, so a DNS answer that changes between
 *   a check and the connection (rebinding) cannot reach a refused address.
 *
 * undici is loaded on the first outbound request, not at boot (docs/architecture.md#startup).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { buildConnector, Dispatcher } from 'undici';
import { addressProblem, type OutboundPolicy, outboundUrlProblem, resolvedProblem } from './destination-policy.js';

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  /** 4 or 6; derived from the address when absent. */
  family?: number;
}

/**
 * Resolves a host name to every address it has. Tests inject one to map names without real DNS.
 * @param host - a host name (never an IP literal)
 * @throws the resolver's error (e.g. `ENOTFOUND`) when the name does not resolve
 */
export type HostResolver = (host: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver: node's `dns.promises.lookup` with `all: true` (hosts file, then DNS). */
export const systemResolver: HostResolver = (host) => dnsLookup(host, { all: true });

/**
 * Raised by a guarded dispatcher when a destination is refused; {@link guardedRequest} turns it into the caller-facing
 * error.
 */
export class RefusedResolution extends Error {
  /**
   * @param problem - why: a clause that completes "… is refused: " (e.g. `its host 'x.test' resolves to 127.0.0.1, …`)
   *   when `url` is absent; with `url`, a clause that completes "<url> " (e.g.
   * `targets 'metadata', a cloud-metadata …`)
   * @param url - the dispatched URL the URL rule refused (the caller's, or a redirect's `Location`)
   */
  constructor(
    readonly problem: string,
    readonly url?: string,
  ) {
    super(`refused destination: ${url === undefined ? problem : `${url} ${problem}`}`);
    this.name = 'RefusedResolution';
  }
}

/** Check every dispatched URL — the first, and each redirect hop — with the URL rule, before it is resolved. */
function urlGuard(policy: OutboundPolicy): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const url = new URL(options.path, options.origin).href;
    const problem = outboundUrlProblem(url, policy);
    if (!problem) return dispatch(options, handler);
    // no request was started, so there is no controller to hand over (undici's own interceptors do the same)
    handler.onResponseError?.(null as unknown as Dispatcher.DispatchController, new RefusedResolution(problem, url));
    return true;
  };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

function lookupHook(policy: OutboundPolicy, resolver: HostResolver) {
  return (hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback): void => {
    resolver(hostname).then(
      (answer) => {
        const problem = resolvedProblem(hostname, answer, policy);
        if (problem) return callback(new RefusedResolution(`its host ${problem}`), []);
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
        const addresses = answer
          .map(({ address, family: given }) => ({ address, family: given ?? isIP(address) }))
          .filter((entry) => family === 0 || entry.family === family);
        const first = addresses[0];
        if (!first)
          return callback(
            Object.assign(new Error(`host ${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }),
            [],
          );
        return options.all ? callback(null, addresses) : callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

function guardedConnector(
  policy: OutboundPolicy,
  resolver: HostResolver,
  build: typeof buildConnector,
): buildConnector.connector {
  const connect = build({ lookup: lookupHook(policy, resolver) });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    const problem = isIP(host) ? addressProblem(host, policy) : undefined;
    if (problem) return callback(new RefusedResolution(`its connection ${problem}`), null);
    return connect(options, callback);
  };
}

const agents = new WeakMap<HostResolver, Map<string, Dispatcher>>();

/**
 * The undici dispatcher of a policy and resolver, created once and kept (connections are pooled per agent).
 * @param policy - the path's host policy (checked on every dispatched URL, and on every connection: literal hosts and
 *   resolved addresses)
 * @param resolver - how names resolve; {@link systemResolver} in production
 * @param maxRedirects - redirects followed (0: a 3xx is handed back as it is); each hop is checked as the first
 * @returns the dispatcher, once undici is loaded
 */
export async function guardedDispatcher(
  policy: OutboundPolicy,
  resolver: HostResolver,
  maxRedirects = 0,
): Promise<Dispatcher> {
  const { Agent, buildConnector, interceptors } = await import('undici');
  let byPolicy = agents.get(resolver);
  if (!byPolicy) {
    byPolicy = new Map();
    agents.set(resolver, byPolicy);
  }
  const key = `${policy.setting}:${policy.allowPrivateHosts}:${maxRedirects}`;
  let dispatcher = byPolicy.get(key);
  if (!dispatcher) {
    const agent = new Agent({ connect: guardedConnector(policy, resolver, buildConnector) });
    // the URL guard is composed inside the redirect interceptor, which dispatches every hop through it
    const guarded = [urlGuard(policy)];
    if (maxRedirects > 0) guarded.push(interceptors.redirect({ maxRedirections: maxRedirects }));
    dispatcher = agent.compose(guarded);
    byPolicy.set(key, dispatcher);
  }
  return dispatcher;
}
