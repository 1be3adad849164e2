/**
 * SSRF guard of completion callbacks (spec §2.3, §6 rule 3): only http(s) URLs whose host is not loopback, private,
 * link-local, carrier-grade NAT, unique-local, multicast, reserved, unspecified or a cloud-metadata name. The WHATWG URL
 * parser normalises numeric host spellings (`2130706433`, `0x7f.1`, `127.1`) to dotted IPv4 first, so they are caught;
 * IPv4-mapped IPv6 addresses are checked as the IPv4 they map. DNS names are checked again at connect time, on the
 * resolved address ({@link isBlockedAddress}), so DNS rebinding cannot bypass the check.
 */
import ipaddr from 'ipaddr.js';
import { isBlockedAddress } from '../net/index.js';

const BLOCKED_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);
const MAX_URL_LENGTH = 2048;

/**
 * Check one callback URL at request time.
 * @param raw - the URL as sent
 * @param allowPrivateHosts - `CALLBACK_ALLOW_PRIVATE_HOSTS` (development and tests only)
 * @returns why the URL is refused, or undefined when it is acceptable
 */
export function callbackUrlProblem(raw: string, allowPrivateHosts: boolean): string | undefined {
  if (raw.length === 0 || raw.length > MAX_URL_LENGTH) return `must be 1 to ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `uses ${url.protocol.replace(/:$/, '')}; only http and https are accepted`;
  if (url.username || url.password) return 'must not carry credentials';
  if (allowPrivateHosts) return undefined;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === '') return 'has no host';
  if (BLOCKED_NAMES.has(host) || host.endsWith('.localhost')) return `targets '${host}', a local or cloud-metadata host`;
  const bare = host.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(bare) && isBlockedAddress(bare)) return `targets ${bare}, a ${ipaddr.process(bare).range()} address`;
  return undefined;
}
