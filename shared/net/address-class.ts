/**
 * What kind of destination an IP address is, for the SSRF guard (spec §2.3, §6 rule 3). Classification is ipaddr.js's
 * special-range table plus two rules of ours:
 * - an IPv6 address that embeds an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64
 *   `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`) is the class of the IPv4 it embeds, so `[64:ff9b::7f00:1]` is
 *   loopback and `[::ffff:a9fe:a9fe]` is cloud metadata; IPv4-compatible `::a.b.c.d` (deprecated, RFC 4291 §2.5.5.1)
 *   is `reserved` whatever it embeds;
 * - the cloud-metadata endpoints ({@link METADATA_ADDRESSES}) are a class of their own, refused in every mode.
 */
import ipaddr from 'ipaddr.js';

/**
 * The class of a destination address:
 * - `public`: global unicast, the only class accepted by default;
 * - `loopback`, `private` (RFC 1918), `uniqueLocal` (fc00::/7): accepted only when an `*_ALLOW_PRIVATE_HOSTS` switch is
 * on;
 * - every other class is refused in every mode.
 */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'uniqueLocal'
  | 'metadata'
  | 'linkLocal'
  | 'carrierGradeNat'
  | 'multicast'
  | 'broadcast'
  | 'unspecified'
  | 'reserved';

/**
 * Cloud-metadata endpoints (CIDR): AWS/GCP/Azure/OpenStack/DigitalOcean/Oracle 169.254.169.254, AWS DNS
 * 169.254.169.253,
 * ECS task metadata 169.254.170.2 and 169.254.170.23, AWS IMDS over IPv6 fd00:ec2::254 (and its DNS fd00:ec2::253),
 * Alibaba 100.100.100.200, Oracle's legacy 192.0.0.192.
 */
const METADATA_ADDRESSES: readonly string[] = [
  '169.254.169.254/32',
  '169.254.169.253/32',
  '169.254.170.2/32',
  '169.254.170.23/32',
  '100.100.100.200/32',
  '192.0.0.192/32',
  'fd00:ec2::254/128',
  'fd00:ec2::253/128',
];

const METADATA_RANGES = METADATA_ADDRESSES.map((cidr) => ipaddr.parseCIDR(cidr));

/** IPv6 prefixes that embed an IPv4 address, with the byte offset of the IPv4 inside the address. */
const IPV4_EMBEDDINGS: readonly { range: [ipaddr.IPv6, number]; offset: number }[] = [
  { range: ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), offset: 12 },
  { range: ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), offset: 12 },
  { range: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), offset: 12 },
  { range: ipaddr.IPv6.parseCIDR('2002::/16'), offset: 2 },
];

const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

const IPV4_CLASSES: Readonly<Record<string, AddressClass>> = {
  unicast: 'public',
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'linkLocal',
  carrierGradeNat: 'carrierGradeNat',
  multicast: 'multicast',
  broadcast: 'broadcast',
  unspecified: 'unspecified',
};

const IPV6_CLASSES: Readonly<Record<string, AddressClass>> = {
  unicast: 'public',
  loopback: 'loopback',
  uniqueLocal: 'uniqueLocal',
  linkLocal: 'linkLocal',
  multicast: 'multicast',
  unspecified: 'unspecified',
};

function isMetadata(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return METADATA_RANGES.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

function classifyIPv4(address: ipaddr.IPv4): AddressClass {
  if (isMetadata(address)) return 'metadata';
  return IPV4_CLASSES[address.range()] ?? 'reserved';
}

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  const embedding = IPV4_EMBEDDINGS.find(({ range }) => address.match(range));
  return embedding && new ipaddr.IPv4(bytes.slice(embedding.offset, embedding.offset + 4));
}

function classifyIPv6(address: ipaddr.IPv6): AddressClass {
  if (isMetadata(address)) return 'metadata';
  const range = address.range();
  if (range === 'loopback' || range === 'unspecified') return IPV6_CLASSES[range]!;
  if (address.match(IPV4_COMPATIBLE)) return 'reserved';
  const embedded = embeddedIPv4(address);
  if (embedded) return classifyIPv4(embedded);
  return IPV6_CLASSES[range] ?? 'reserved';
}

/**
 * The class of an IP address.
 * @param address - an IPv4 (dotted decimal) or IPv6 literal, brackets allowed (`[::1]`), as the WHATWG URL parser or
 *   a DNS answer gives it
 * @returns its class; `reserved` for text that is not an IP address (a refusal, never a pass)
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return classifyIPv4(ipaddr.IPv4.parse(bare));
  if (ipaddr.IPv6.isValid(bare)) return classifyIPv6(ipaddr.IPv6.parse(bare));
  return 'reserved';
}

/**
 * Whether a string is an IP literal (dotted-decimal IPv4 or IPv6, brackets allowed), as opposed to a host name.
 * @param host - a URL's `hostname`
 */
export function isAddressLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || ipaddr.IPv6.isValid(bare);
}

const DESCRIPTIONS: Readonly<Record<AddressClass, string>> = {
  public: 'a public address',
  loopback: 'a non-public address (loopback)',
  private: 'a non-public address (private, RFC 1918)',
  uniqueLocal: 'a non-public address (unique-local IPv6)',
  metadata: 'a cloud-metadata address',
  linkLocal: 'a non-public address (link-local)',
  carrierGradeNat: 'a non-public address (carrier-grade NAT, 100.64.0.0/10)',
  multicast: 'a non-public address (multicast)',
  broadcast: 'a non-public address (broadcast)',
  unspecified: 'a non-public address (unspecified)',
  reserved: 'a non-public address (reserved or special-purpose)',
};

/**
 * How a refusal detail names a class, e.g. `a non-public address (loopback)`.
 * @param addressClass - the class
 */
export function describeAddressClass(addressClass: AddressClass): string {
  return DESCRIPTIONS[addressClass];
}
