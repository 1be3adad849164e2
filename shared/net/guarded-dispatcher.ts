/**
 * The connect-time half of the SSRF guard: undici agents whose `connect.lookup` resolves the host, checks every
 * address with {@link resolvedProblem}, and hands the socket only checked addresses, so a DNS answer that changes
 * between a check and the connection (rebinding) cannot reach a refused address. Node skips `lookup` for IP literals:
 * those are checked on the URL before connecting ({@link guardedRequest}).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent } from 'undici';
import { resolvedProblem, type OutboundPolicy } from './destination-policy.js';

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

/** Raised by the lookup hook when a resolved address is refused; {@link guardedRequest} turns it into the caller-facing error. */
export class RefusedResolution extends Error {
  /**
   * @param problem - why, as {@link resolvedProblem} words it
   */
  constructor(readonly problem: string) {
    super(`refused destination: ${problem}`);
    this.name = 'RefusedResolution';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

function lookupHook(policy: OutboundPolicy, resolver: HostResolver) {
  return (hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback): void => {
    resolver(hostname).then(
      (answer) => {
        const problem = resolvedProblem(hostname, answer, policy);
        if (problem) return callback(new RefusedResolution(problem), []);
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
        const addresses = answer.map(({ address, family: given }) => ({ address, family: given ?? isIP(address) })).filter((entry) => family === 0 || entry.family === family);
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`host ${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), []);
        return options.all ? callback(null, addresses) : callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

const agents = new WeakMap<HostResolver, Map<string, Agent>>();

/**
 * The undici dispatcher of a policy and resolver, created once and kept (connections are pooled per agent).
 * @param policy - the path's host policy (checked on every resolved address)
 * @param resolver - how names resolve; {@link systemResolver} in production
 */
export function guardedDispatcher(policy: OutboundPolicy, resolver: HostResolver): Agent {
  let byPolicy = agents.get(resolver);
  if (!byPolicy) {
    byPolicy = new Map();
    agents.set(resolver, byPolicy);
  }
  const key = `${policy.setting}:${policy.allowPrivateHosts}`;
  let agent = byPolicy.get(key);
  if (!agent) {
    agent = new Agent({ connect: { lookup: lookupHook(policy, resolver) } });
    byPolicy.set(key, agent);
  }
  return agent;
}
