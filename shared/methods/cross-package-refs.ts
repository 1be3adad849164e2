/**
 * The package addresses a bundle's cross-package references name: the left side of `<address>->domain.code` when it
 * is an address (`host.tld/owner/repo/package`, the form real bundles use;
 * docs/namespaces.md#cross-package-references). Found by walking every
 * string value of the parsed TOML whose whole text is such a reference (a step's `pipe`, an input's concept…), so
 * prose that merely contains an arrow never counts. A text that does not parse yields nothing here (the library load
 * reports it).
 *
 * @see docs/namespaces.md#reference-syntax, docs/namespaces.md#cross-package-references; docs/namespaces.md#visibility
 */
import { parse } from 'smol-toml';
import { type BundleSource, parseConceptRef, parsePipeRef, splitPresence } from '../mthds/index.js';

/** A package address (`host.tld/owner/repo[/package]`), as opposed to an alias. */
const PACKAGE_ADDRESS = /^[A-Za-z0-9._-]+\.[A-Za-z0-9._-]+\/[A-Za-z0-9._/-]+$/;

function collect(value: unknown, found: Set<string>): void {
  if (typeof value === 'string') {
    const packageRef = (parsePipeRef(value) ?? parseConceptRef(splitPresence(value).ref))?.packageRef;
    if (packageRef !== undefined && PACKAGE_ADDRESS.test(packageRef)) found.add(packageRef);
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) collect(item, found);
  }
}

/**
 * The package addresses the sources reference, as written (first spelling wins for addresses differing only in case).
 * @param sources - bundle texts
 */
export function referencedPackageAddresses(sources: readonly BundleSource[]): string[] {
  const found = new Set<string>();
  for (const source of sources) {
    try {
      collect(parse(source.content), found);
    } catch {}
  }
  const byLower = new Map<string, string>();
  for (const address of found) if (!byLower.has(address.toLowerCase())) byLower.set(address.toLowerCase(), address);
  return [...byLower.values()];
}
