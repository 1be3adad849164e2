/**
 * Where git fetches a reference from: the clone URL built from `METHOD_REF_CLONE_URL_TEMPLATE`, and the SSRF check of
 * its host (the same address policy as completion callbacks) unless `METHOD_REF_ALLOW_PRIVATE_HOSTS` is on.
 *
 * The host is resolved and checked before git runs; git itself then resolves it again, so a DNS answer that changes
 * between the two (rebinding) is not caught here — the transports are restricted to the template's http(s) scheme.
 *
 * @see spec §2.2; API-CONTRACT.md §10.3; CLIENTS.md §6.5 step 3
 */
import { lookup } from 'node:dns/promises';
import { callbackUrlProblem } from '../callbacks/index.js';
import { MethodFetchError } from '../errors/index.js';
import { isBlockedAddress } from '../net/index.js';
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
 * Refuse a clone URL whose host is loopback, private, link-local, metadata or otherwise non-public.
 * @param url - the clone URL
 * @param allowPrivateHosts - `METHOD_REF_ALLOW_PRIVATE_HOSTS` (development and tests only)
 * @throws MethodFetchError (422) naming the refused host
 */
export async function checkCloneHost(url: string, allowPrivateHosts: boolean): Promise<void> {
  if (allowPrivateHosts) return;
  const problem = callbackUrlProblem(url, false);
  const host = new URL(url).hostname;
  if (problem) throw new MethodFetchError(`The clone URL of this method reference is refused: it ${problem}.`);
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host.replace(/^\[|\]$/g, ''), { all: true });
  } catch (error) {
    throw new MethodFetchError(`Could not resolve the clone host ${host}: ${(error as Error).message}.`, { cause: error });
  }
  const blocked = addresses.find((entry) => isBlockedAddress(entry.address));
  if (blocked) throw new MethodFetchError(`The clone host ${host} resolves to ${blocked.address}, a non-public address; fetching from it is refused.`);
}
