/**
 * Where git fetches a reference from: the clone URL built from `METHOD_REF_CLONE_URL_TEMPLATE`, and the SSRF check of
 * its host (the same address policy as completion callbacks) unless `METHOD_REF_ALLOW_PRIVATE_HOSTS` is on.
 *
 * The host is resolved and checked before git runs, and git is then pinned to the checked address
 * (`http.curloptResolve`, curl's `--resolve`), so a DNS answer that changes between the check and the connection
 * (rebinding) cannot send git elsewhere. Transports are restricted to the template's http(s) scheme.
 *
 * @see spec §2.2; API-CONTRACT.md §10.3; CLIENTS.md §6.5 step 3
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { callbackUrlProblem } from '../callbacks/index.js';
import { MethodFetchError } from '../errors/index.js';
import { firstBlockedAddress } from '../net/index.js';
import type { MethodRef } from './method-ref.js';

/**
 * The clone URL of a reference.
 * @param ref - a parsed reference
 * @param template - `METHOD_REF_CLONE_URL_TEMPLATE`, with `{host}`, `{owner}` and `{repo}` placeholders
 * @returns e.g. `https://github.com/pipelex/methods.git`
 */
export function cloneUrl(ref: Pick<MethodRef, 'host' | 'owner' | 'repo'>, template: string): string {
  return template.replaceAll('{host}', ref.host).replaceAll('{owner}', ref.owner).replaceAll('{repo}', ref.repo);
}

/**
 * The git transport of a clone URL (`http` or `https`), for `GIT_ALLOW_PROTOCOL`.
 * @param url - a clone URL
 */
export function cloneProtocol(url: string): 'http' | 'https' {
  return new URL(url).protocol === 'http:' ? 'http' : 'https';
}

/** Resolves a host name to all its addresses (node's `dns.promises.lookup` with `all: true` by default). */
export type HostLookup = (host: string) => Promise<{ address: string }[]>;

const systemLookup: HostLookup = (host) => dnsLookup(host, { all: true });

/**
 * The `http.curloptResolve` entry that pins a URL's host and port to one address (`host:port:address`, an IPv6
 * address in brackets), as curl's `--resolve` takes it.
 * @param url - the clone URL
 * @param address - the checked address
 */
export function curlResolveEntry(url: string, address: string): string {
  const parsed = new URL(url);
  const port = parsed.port || (parsed.protocol === 'http:' ? '80' : '443');
  return `${parsed.hostname.replace(/^\[|\]$/g, '')}:${port}:${address.includes(':') ? `[${address}]` : address}`;
}

/**
 * Refuse a clone URL whose host is loopback, private, link-local, metadata or otherwise non-public, and pin it.
 * @param url - the clone URL
 * @param allowPrivateHosts - `METHOD_REF_ALLOW_PRIVATE_HOSTS` (development and tests only): no check, no pin
 * @param lookup - the resolver (the system's by default)
 * @returns the `http.curloptResolve` entry pinning git to the first checked address, or null when nothing is checked
 *   (private hosts allowed, or the host is already a literal address)
 * @throws MethodFetchError (422) naming the refused host, or when the host does not resolve
 */
export async function checkCloneHost(url: string, allowPrivateHosts: boolean, lookup: HostLookup = systemLookup): Promise<string | null> {
  if (allowPrivateHosts) return null;
  const problem = callbackUrlProblem(url, false);
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (problem) throw new MethodFetchError(`The clone URL of this method reference is refused: it ${problem}.`);
  if (isIP(host) !== 0) return null;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host);
  } catch (error) {
    throw new MethodFetchError(`Could not resolve the clone host ${host}: ${(error as Error).message}.`, { cause: error });
  }
  const blocked = firstBlockedAddress(addresses);
  if (blocked) throw new MethodFetchError(`The clone host ${host} resolves to ${blocked}, a non-public address; fetching from it is refused.`);
  const first = addresses[0];
  if (!first) throw new MethodFetchError(`Could not resolve the clone host ${host}: no address.`);
  return curlResolveEntry(url, first.address);
}
