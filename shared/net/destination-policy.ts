/**
 * The SSRF rules of every outbound request made on a caller's behalf (spec §2.3, §6 rule 3;
 * `docs/outbound-requests.md`):
 * only http(s) URLs without credentials, whose host is a public address or a name that resolves only to public
 * addresses. An `*_ALLOW_PRIVATE_HOSTS` switch (development and tests) also accepts loopback, private (RFC 1918) and
 * unique-local destinations, and `localhost` names; cloud-metadata addresses and names, and every other non-public
 * class (link-local, carrier-grade NAT, multicast, broadcast, unspecified, reserved), are refused in every mode.
 *
 * Host literals are checked on the parsed URL, before any connection: the WHATWG URL parser first normalises every
 * numeric IPv4 spelling (`2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1`) to dotted decimal and compresses IPv6.
 * Names are checked here against the metadata and `localhost` names, then again on their resolved addresses.
 */
import { type AddressClass, classifyAddress, describeAddressClass, isAddressLiteral } from './address-class.js';

/** The host policy of one outbound path. */
export interface OutboundPolicy {
  /** The path's `*_ALLOW_PRIVATE_HOSTS` setting: loopback, private and unique-local destinations are accepted too. */
  readonly allowPrivateHosts: boolean;
  /** Name of that setting (e.g. `DOCUMENT_ALLOW_PRIVATE_HOSTS`), for refusal details. */
  readonly setting: string;
}

/**
 * Host names of cloud-metadata services (GCP, AWS, Tencent, Equinix Metal; `metadata` alone is how GCP and Azure
 * guests reach theirs), refused in every mode, with any subdomain.
 */
const METADATA_HOST_NAMES: readonly string[] = [
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.internal',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
];

const ALLOWABLE: ReadonlySet<AddressClass> = new Set(['loopback', 'private', 'uniqueLocal']);

function verdict(subject: string, addressClass: AddressClass, policy: OutboundPolicy): string | undefined {
  if (addressClass === 'public') return undefined;
  if (ALLOWABLE.has(addressClass) && policy.allowPrivateHosts) return undefined;
  if (addressClass === 'metadata')
    return `${subject}: cloud-metadata destinations are refused in every mode, whatever ${policy.setting} says`;
  if (ALLOWABLE.has(addressClass))
    return `${subject}: only public destinations are accepted while ${policy.setting} is off (it is for development and tests only)`;
  return `${subject}, refused in every mode (${policy.setting} allows only loopback and private destinations)`;
}

function bareHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}

function isUnder(host: string, name: string): boolean {
  return host === name || host.endsWith(`.${name}`);
}

/**
 * Why a destination address is refused.
 * @param address - an IP literal (brackets allowed)
 * @param policy - the path's policy
 * @returns a sentence fragment such as `targets 127.0.0.1, a non-public address (loopback): only public destinations
 *   are accepted while DOCUMENT_ALLOW_PRIVATE_HOSTS is off …`, or undefined when the address is acceptable
 */
export function addressProblem(address: string, policy: OutboundPolicy): string | undefined {
  const addressClass = classifyAddress(address);
  return verdict(`targets ${address}, ${describeAddressClass(addressClass)}`, addressClass, policy);
}

/**
 * Why a host name's DNS answer is refused: one refused address refuses the name, since a connection may pick any of
 * them (and a rebinding answer may alternate).
 * @param host - the name that was resolved
 * @param addresses - every address it resolved to
 * @param policy - the path's policy
 * @returns a fragment such as `'rebind.test' resolves to 127.0.0.1, a non-public address (loopback): …`, or undefined
 */
export function resolvedProblem(
  host: string,
  addresses: readonly { address: string }[],
  policy: OutboundPolicy,
): string | undefined {
  for (const { address } of addresses) {
    const addressClass = classifyAddress(address);
    const problem = verdict(
      `'${host}' resolves to ${address}, ${describeAddressClass(addressClass)}`,
      addressClass,
      policy,
    );
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Why a URL's host is refused before connecting: a refused IP literal, a cloud-metadata name, or (switch off) a
 * `localhost` name.
 * @param hostname - the WHATWG-parsed `URL.hostname` (IPv6 in brackets)
 * @param policy - the path's policy
 * @returns a fragment such as `targets 'metadata.google.internal', a cloud-metadata host name: …`, or undefined
 */
function hostProblem(hostname: string, policy: OutboundPolicy): string | undefined {
  const host = bareHost(hostname);
  if (host === '') return 'has no host';
  if (isAddressLiteral(host)) return addressProblem(host, policy);
  if (METADATA_HOST_NAMES.some((name) => isUnder(host, name)))
    return verdict(`targets '${host}', a cloud-metadata host name`, 'metadata', policy);
  if (isUnder(host, 'localhost')) return verdict(`targets '${host}', a loopback host name`, 'loopback', policy);
  return undefined;
}

/**
 * Check an outbound URL before connecting: http or https, no credentials, an acceptable host.
 * @param raw - the URL as given
 * @param policy - the path's policy
 * @returns why it is refused (a fragment to follow "the URL …", e.g. `uses ftp; only http and https are accepted`), or
 *   undefined when it may be requested (names are checked again on their resolved addresses at connect time)
 */
export function outboundUrlProblem(raw: string, policy: OutboundPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `uses ${url.protocol.replace(/:$/, '')}; only http and https are accepted`;
  if (url.username || url.password) return 'must not carry credentials';
  return hostProblem(url.hostname, policy);
}
