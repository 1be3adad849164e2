/**
 * Outbound HTTP that cannot be turned against the service's own network (SSRF): connections resolve the host and
 * refuse any address that is not public unicast (loopback, private, link-local, carrier-grade NAT, unique-local,
 * metadata…), at connect time, so DNS rebinding cannot bypass the check. Used for completion callbacks and for
 * documents fetched by URL.
 */
import { lookup as dnsLookup } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

/**
 * Whether an IP address is refused as a destination.
 * @param address - an IPv4 or IPv6 literal (brackets allowed)
 * @returns true for anything but a public unicast address (and for unparsable input)
 */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return true;
  return ipaddr.process(bare).range() !== 'unicast';
}

/**
 * The first address of a host's DNS answer that is refused as a destination: one refused address refuses the host,
 * since the connection may pick any of them.
 * @param addresses - every address the host resolves to
 * @returns the refused address, or undefined when all are public unicast
 */
export function firstBlockedAddress(addresses: readonly { address: string }[]): string | undefined {
  return addresses.find((entry) => isBlockedAddress(entry.address))?.address;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

function guardedLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const blocked = firstBlockedAddress(addresses);
    if (blocked) {
      return callback(Object.assign(new Error(`host ${hostname} resolves to ${blocked}, a non-public address`), { code: 'ESSRFBLOCKED' }), []);
    }
    const all = (options as { all?: boolean }).all;
    return all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

const guardedAgent = new Agent({ connect: { lookup: guardedLookup } });
const openAgent = new Agent();

/**
 * The undici dispatcher to use for an outbound request.
 * @param allowPrivateHosts - true only in development and tests (a setting, logged loudly when on)
 */
export function outboundDispatcher(allowPrivateHosts: boolean): Agent {
  return allowPrivateHosts ? openAgent : guardedAgent;
}
