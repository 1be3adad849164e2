/**
 * Locating a package in a fetched repository by manifest identity (docs/methods.md#locating-the-package;
 * docs/methods.md#grammar).
 *
 * Scan: walk the clone without following symlinked directories, pruning `.git`; collect every `METHODS.toml`, sorted
 * by path; more than `SERVICE_MAX_SCANNED_MANIFESTS` is `MethodPackageTooLargeError`. A manifest is skipped, with its
 * reason, when it is a symlink, not a regular file, over `SERVICE_MAX_MANIFEST_FILE_KIB`, not UTF-8 or not parseable.
 *
 * Match (case-insensitive): `address + "/" + name` equals the requested address (anywhere in the tree), or `address`
 * equals it and the manifest sits at the clone root. None is 404 `MethodPackageNotFoundError` listing the addresses
 * the repository contains; several is 422 `MethodPackageAmbiguityError`.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  MethodPackageAmbiguityError,
  MethodPackageNotFoundError,
  MethodPackageTooLargeError,
} from '../errors/index.js';
import { type Manifest, readManifest } from './manifest.js';

/** Bounds of the scan (`SERVICE_MAX_SCANNED_MANIFESTS`, `SERVICE_MAX_MANIFEST_FILE_KIB`). */
export interface ScanLimits {
  maxScannedManifests: number;
  maxManifestFileKib: number;
}

/** A package found in the clone. */
export interface FoundPackage {
  /** Absolute directory of the package. */
  dir: string;
  /** Its directory relative to the clone root, POSIX separators; `''` at the root. */
  relativeDir: string;
  manifest: Manifest;
}

/** The manifests of one clone. */
export interface ManifestScan {
  packages: FoundPackage[];
  /** `<path>: <reason>` for each skipped manifest. */
  skipped: string[];
}

const MANIFEST_NAME = 'METHODS.toml';
const UTF8 = new TextDecoder('utf-8', { fatal: true });

async function manifestPaths(root: string, relative: string, found: string[]): Promise<void> {
  for (const entry of await readdir(path.join(root, relative), { withFileTypes: true })) {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.name === MANIFEST_NAME) found.push(child);
    else if (entry.isDirectory() && entry.name !== '.git') await manifestPaths(root, child, found);
  }
}

/**
 * Scan a clone for manifests.
 * @param cloneDir - the clone (cache entry)
 * @param limits - scan bounds
 * @throws MethodPackageTooLargeError (422) when there are more manifests than the scan limit
 */
export async function scanManifests(cloneDir: string, limits: ScanLimits): Promise<ManifestScan> {
  const paths: string[] = [];
  await manifestPaths(cloneDir, '', paths);
  paths.sort();
  if (paths.length > limits.maxScannedManifests) {
    throw new MethodPackageTooLargeError(
      `The fetched repository holds ${paths.length} METHODS.toml files, more than the ${limits.maxScannedManifests} this server scans.`,
    );
  }
  const packages: FoundPackage[] = [];
  const skipped: string[] = [];
  for (const relative of paths) {
    const absolute = path.join(cloneDir, relative);
    const info = await lstat(absolute);
    if (info.isSymbolicLink()) skipped.push(`${relative}: a symlink`);
    else if (!info.isFile()) skipped.push(`${relative}: not a regular file`);
    else if (info.size > limits.maxManifestFileKib * 1024)
      skipped.push(`${relative}: larger than ${limits.maxManifestFileKib} KiB`);
    else {
      let text: string;
      try {
        text = UTF8.decode(await readFile(absolute));
      } catch {
        skipped.push(`${relative}: not UTF-8`);
        continue;
      }
      const read = readManifest(text);
      if ('skipped' in read) skipped.push(`${relative}: ${read.skipped}`);
      else
        packages.push({
          dir: path.dirname(absolute),
          relativeDir: path.posix.dirname(relative) === '.' ? '' : path.posix.dirname(relative),
          manifest: read.manifest,
        });
    }
  }
  return { packages, skipped };
}

/**
 * The packages of a scan that a package address names.
 * @param scan - the clone's manifests
 * @param address - a full package address, e.g. `github.com/pipelex/methods/cv_analyzer`
 */
export function packagesAt(scan: ManifestScan, address: string): FoundPackage[] {
  const wanted = address.toLowerCase();
  return scan.packages.filter(
    (found) =>
      (found.manifest.name !== null && found.manifest.fullAddress.toLowerCase() === wanted) ||
      (found.manifest.address.toLowerCase() === wanted && found.relativeDir === ''),
  );
}

/**
 * The one package a scan holds at an address.
 * @param scan - the clone's manifests
 * @param address - the requested full package address
 * @throws MethodPackageNotFoundError (404) listing the package addresses found (and the skipped manifests)
 * @throws MethodPackageAmbiguityError (422) listing each match and its directory
 */
export function locatePackage(scan: ManifestScan, address: string): FoundPackage {
  const matches = packagesAt(scan, address);
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new MethodPackageAmbiguityError(
      `Several packages in the fetched repository match address '${address}': ${matches.map((found) => `${found.manifest.fullAddress} (${found.relativeDir === '' ? '.' : found.relativeDir}/)`).join(', ')}.`,
    );
  }
  const skipped = scan.skipped.length > 0 ? ` Manifests skipped: ${scan.skipped.join('; ')}.` : '';
  if (scan.packages.length === 0)
    throw new MethodPackageNotFoundError(
      `No package (no METHODS.toml) found in the repository fetched for '${address}'.${skipped}`,
    );
  const addresses = [...new Set(scan.packages.map((found) => found.manifest.fullAddress))].sort();
  throw new MethodPackageNotFoundError(
    `No package at address '${address}' in the fetched repository. Packages it contains: ${addresses.join(', ')}.${skipped}`,
  );
}
