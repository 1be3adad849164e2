/**
 * The crate fingerprint (docs/crate.md#crate-shape): SHA-256 over the UTF-8 bytes of the RFC 8785 canonical JSON (keys
 * sorted at every level, no whitespace, non-ASCII written literally) of `{concepts, pipes, domains}`.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { CrateSemantics } from './crate.js';

/**
 * Compute the fingerprint of a crate's semantic members. `source_map`, `mthds_version` and the fingerprint itself are
 * not covered, so the `source` labels of the files never change it.
 * @param semantics - the crate's `concepts`, `pipes` and `domains`
 * @returns 64 lowercase hex characters
 * @throws Error when a member cannot be encoded as JSON (a non-finite number; never for a loaded library)
 * @see docs/crate.md#crate-shape, spec §2.8
 */
export function crateFingerprint(semantics: CrateSemantics): string {
  const { concepts, pipes, domains } = semantics;
  const canonical = canonicalize({ concepts, pipes, domains });
  if (canonical === undefined) throw new Error('the crate members have no JSON encoding');
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
