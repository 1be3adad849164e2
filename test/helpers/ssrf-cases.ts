/**
 * The destinations of the SSRF tests (`docs/outbound-requests.md`): every spelling of a non-public host the guard must
 * refuse, grouped by what an `*_ALLOW_PRIVATE_HOSTS` switch does to it, and a resolver that maps test names to
 * addresses without DNS.
 */
import type { HostResolver } from '../../shared/net/index.js';

/** Spellings of 127.0.0.1 that reach a sink listening there once the allow switch is on (the positive controls). */
export const LOOPBACK_SPELLINGS: readonly string[] = [
  '127.0.0.1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0x7f.1',
  '0177.0.0.1',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
];

/** Loopback and private destinations: refused while the switch is off, accepted when it is on (not reachable here). */
export const PRIVATE_SPELLINGS: readonly string[] = [
  '[::1]',
  '[64:ff9b::7f00:1]',
  '[2002:7f00:1::]',
  '[::ffff:0:7f00:1]',
  '10.0.0.1',
  '172.16.0.1',
  '192.168.0.1',
  '[fd12:3456::1]',
  'localhost',
];

/** Cloud-metadata addresses and names, and other non-public classes: refused in every mode. */
export const ALWAYS_REFUSED_SPELLINGS: readonly string[] = [
  '169.254.169.254',
  '2852039166',
  '0xa9fea9fe',
  '[::ffff:169.254.169.254]',
  '[::ffff:a9fe:a9fe]',
  '[64:ff9b::a9fe:a9fe]',
  '[2002:a9fe:a9fe::]',
  '169.254.170.2',
  '[fd00:ec2::254]',
  '100.100.100.200',
  'metadata',
  'metadata.google.internal',
  'METADATA.GOOGLE.INTERNAL.',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  '0.0.0.0',
  '0',
  '[::]',
  '[::127.0.0.1]',
  '169.254.1.1',
  '[fe80::1]',
  '100.64.0.1',
  '224.0.0.1',
  '[ff02::1]',
  '255.255.255.255',
  '240.0.0.1',
];

/** Every spelling refused while the switch is off. */
export const REFUSED_WHEN_OFF: readonly string[] = [
  ...LOOPBACK_SPELLINGS,
  ...PRIVATE_SPELLINGS,
  ...ALWAYS_REFUSED_SPELLINGS,
];

/**
 * Names the test resolver knows: `rebind.test` is loopback, `private.test` RFC 1918, `metadata-rebind.test` the
 * metadata address, `mapped-metadata.test` its IPv4-mapped form, `mixed.test` a public address and a loopback one
 * (one refused address refuses the name).
 */
const TEST_NAMES: Readonly<Record<string, readonly string[]>> = {
  'rebind.test': ['127.0.0.1'],
  'private.test': ['10.0.0.1'],
  'metadata-rebind.test': ['169.254.169.254'],
  'mapped-metadata.test': ['::ffff:169.254.169.254'],
  'ecs-metadata.test': ['169.254.170.2'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
};

/** Names refused at connect time while the switch is off. */
export const NAMES_REFUSED_WHEN_OFF: readonly string[] = Object.keys(TEST_NAMES);

/** Names refused at connect time in every mode. */
export const NAMES_ALWAYS_REFUSED: readonly string[] = [
  'metadata-rebind.test',
  'mapped-metadata.test',
  'ecs-metadata.test',
];

/** A resolver over {@link TEST_NAMES}: never DNS; an unknown name fails like `ENOTFOUND`. */
export const testResolver: HostResolver = async (host) => {
  const addresses = TEST_NAMES[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address }));
};
