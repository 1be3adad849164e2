/**
 * Scopes and object names that try to leave their storage prefix (docs/storage.md#path-safety): traversal, absolute
 * paths, separators, percent-encoded forms and Unicode forms that normalise (NFKC) or look like `.`, `/` or `..`.
 */

/** Scopes that must be refused. */
export const EVIL_SCOPES = [
  '',
  '..',
  '../x',
  'acme/..',
  'acme/../../etc',
  '/etc',
  '/acme/prod',
  'acme/',
  'a/b/c/d',
  'acme\\prod',
  '%2e%2e',
  'acme%2F..',
  '..%2f..%2fetc',
  '\uff0e\uff0e',
  'acme\u2215prod',
  'acme/\u2024\u2024',
  'caf\u00e9',
  'acme\u0000',
  'C:\\Windows',
];

/** Object names that must be refused. */
export const EVIL_NAMES = [
  '',
  '.',
  '..',
  '.hidden',
  '../secret.json',
  'a/b.json',
  '/etc/passwd',
  '%2e%2e',
  '..%2fsecret',
  '%2fetc%2fpasswd',
  '\uff0e\uff0e',
  'a\uff0fb',
  '\u2025',
  'e\u0301.json',
  'a\\b',
  'nul\u0000.json',
  'x'.repeat(201),
];
