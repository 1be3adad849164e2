/**
 * Where git fetches a reference from: the clone URL built from `METHOD_REF_CLONE_URL_TEMPLATE`, and the SSRF check of
 * its host by the guard of `shared/net` (the classification every outbound path uses) under
 * `METHOD_REF_ALLOW_PRIVATE_HOSTS`, which accepts loopback and private hosts but never cloud metadata.
 *
 * The host is resolved and checked before git runs, and git is then pinned to the checked address
 * (`http.curloptResolve`, curl's `--resolve`), so a DNS answer that changes between the check and the connection
 * (rebinding) cannot send git elsewhere. Git is given the WHATWG-normalised URL ({@link normalisedCloneUrl}), so an
 * IP literal reaches git in the dotted form that was checked. Transports are restricted to the template's http(s)
 * scheme.
 *
 * @see spec §2.2; docs/methods.md#fetching-and-the-clone-cache; docs/methods.md#grammar; docs/outbound-requests.md
 */
import { isIP } from 'node:net';
import { MethodFetchError } from '../errors/index.js';
import {
  type HostResolver,
  type OutboundPolicy,
  outboundUrlProblem,
  resolvedProblem,
  systemResolver,
} from '../net/index.js';
import { GitHostUnavailable } from './host-unavailable.js';
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

/**
 * The clone URL as git must receive it: WHATWG-normalised, so the host git connects to is the one the guard checked
 * (`http://2130706433:8080/o/r.git` becomes `http://127.0.0.1:8080/o/r.git`).
 * @param url - a clone URL
 * @throws MethodFetchError (422) when it is not a URL
 */
export function normalisedCloneUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch (error) {
    throw new MethodFetchError(`The clone URL of this method reference is not a valid URL.`, { cause: error });
  }
}

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
 * Refuse a clone URL whose host is loopback, private, link-local, cloud-metadata or otherwise non-public, and pin it.
 * @param url - the clone URL (normalised, {@link normalisedCloneUrl})
 * @param allowPrivateHosts - `METHOD_REF_ALLOW_PRIVATE_HOSTS` (development and tests only): loopback and private hosts
 *   are accepted too; cloud-metadata and other non-public destinations never are
 * @param lookup - the resolver (the system's by default)
 * @returns the `http.curloptResolve` entry pinning git to the first checked address, or null when the host is already
 *   a literal address (checked, nothing to pin)
 * @throws MethodFetchError (422) naming the refused host, its address class and the setting, or when the host does
 *   not resolve (then its `cause` is a {@link GitHostUnavailable})
 */
export async function checkCloneHost(
  url: string,
  allowPrivateHosts: boolean,
  lookup: HostResolver = systemResolver,
): Promise<string | null> {
  const policy: OutboundPolicy = { allowPrivateHosts, setting: 'METHOD_REF_ALLOW_PRIVATE_HOSTS' };
  const problem = outboundUrlProblem(url, policy);
  if (problem) throw new MethodFetchError(`The clone URL of this method reference is refused: it ${problem}.`);
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return null;
  let addresses: readonly { address: string }[];
  try {
    addresses = await lookup(host);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new MethodFetchError(`Could not resolve the clone host ${host}: ${message}.`, {
      cause: new GitHostUnavailable(`the clone host ${host} did not resolve: ${message}`, error),
    });
  }
  const refused = resolvedProblem(host, addresses, policy);
  if (refused) throw new MethodFetchError(`The clone host is refused: ${refused}.`);
  const first = addresses[0];
  if (!first) throw new MethodFetchError(`Could not resolve the clone host ${host}: no address.`);
  return curlResolveEntry(url, first.address);
}
