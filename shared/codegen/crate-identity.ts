/**
 * The crate facts the codegen stamps and locks depend on (spec §2.8, §4.7; API-CONTRACT.md §4.6–4.7): the crate
 * fingerprint. {@link crateIdentity} is the seam where the normalized crate of `/v1/resolve` plugs in; until then it
 * fingerprints the library itself: SHA-256 over the key-sorted compact JSON of its concepts, pipes (without their
 * source label) and domains, so the same library gives the same fingerprint whatever the order of its files.
 */
import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import type { Library } from '../mthds/index.js';

const canonicalJson = configure({ deterministic: true, bigint: false });

/** The crate facts codegen reads. */
export interface CrateIdentity {
  /** 64 lowercase hex characters. */
  fingerprint: string;
}

/**
 * The crate identity of a library.
 * @param library - a validated library
 */
export function crateIdentity(library: Library): CrateIdentity {
  const byRef = <T>(entries: Iterable<[string, T]>) => Object.fromEntries([...entries]);
  const pipes = byRef([...library.pipes].map(([ref, pipe]) => [ref, { ...pipe, source: undefined }] as [string, unknown]));
  const payload = { concepts: byRef(library.concepts), pipes, domains: byRef(library.domains) };
  return { fingerprint: createHash('sha256').update(canonicalJson(payload) ?? '', 'utf8').digest('hex') };
}
