/**
 * The `callback_urls` rule of `/v1/start` (spec §2.3, §6 rule 3): a URL of at most 2048 characters that the SSRF guard
 * of `shared/net` accepts under `CALLBACK_ALLOW_PRIVATE_HOSTS` (http or https, no credentials, no loopback, private,
 * link-local, cloud-metadata or other non-public host; cloud metadata is refused even with the switch on).
 * @see docs/outbound-requests.md
 */
import { LRUCache } from 'lru-cache';
import { type OutboundPolicy, outboundUrlProblem } from './destination-policy.js';

const MAX_URL_LENGTH = 2048;

/**
 * The verdicts on the callback URLs seen lately, by policy and URL (`''`: acceptable): a client sends the same few
 * URLs with every start, and parsing one and classifying its host costs more than the rest of the start's checks.
 * At most 1,000 URLs of at most 2,048 characters.
 */
const verdicts = new LRUCache<string, string>({ max: 1000 });

/**
 * The host policy of completion callbacks.
 * @param allowPrivateHosts - `CALLBACK_ALLOW_PRIVATE_HOSTS` (development and tests only)
 */
export function callbackPolicy(allowPrivateHosts: boolean): OutboundPolicy {
  return { allowPrivateHosts, setting: 'CALLBACK_ALLOW_PRIVATE_HOSTS' };
}

/**
 * Check one callback URL at request time.
 * @param raw - the URL as sent
 * @param allowPrivateHosts - `CALLBACK_ALLOW_PRIVATE_HOSTS` (development and tests only)
 * @returns why the URL is refused (a fragment following the URL, e.g. `targets 169.254.169.254, a cloud-metadata
 *   address: …`), or undefined when it is acceptable
 */
export function callbackUrlProblem(raw: string, allowPrivateHosts: boolean): string | undefined {
  if (raw.length === 0 || raw.length > MAX_URL_LENGTH) return `must be 1 to ${MAX_URL_LENGTH} characters`;
  const key = `${allowPrivateHosts ? 'private' : 'public'} ${raw}`;
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    verdict = outboundUrlProblem(raw, callbackPolicy(allowPrivateHosts)) ?? '';
    verdicts.set(key, verdict);
  }
  return verdict === '' ? undefined : verdict;
}
