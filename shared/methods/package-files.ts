/**
 * Reading a located package (docs/methods.md#locating-the-package bounds, §10.5 shaping and gates): the package
 * directory, `.git`
 * and `__pycache__` skipped and nested packages (sub-directories with their own `METHODS.toml`) left out, is bounded by
 * `SERVICE_MAX_FETCHED_PACKAGE_FILES` / `_TOTAL_KIB`; on purpose `run`, Python is gated (structure classes: 403
 * `MethodStructuresRefusedError`; any other `.py`: 403 `CustomCodeRequiresSandbox`); the `.mthds` files, in sorted
 * order, become bundle sources named by their package-relative path, and on purpose `run` the other files (but
 * `METHODS.toml` and `requirements.txt`) become the run's library files, which documents may name by path. Symlinks
 * are never followed nor read.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CustomCodeRequiresSandbox,
  MethodPackageTooLargeError,
  MethodStructuresRefusedError,
  ValidationError,
} from '../errors/index.js';
import type { BundleSource } from '../mthds/index.js';
import type { FetchPurpose } from './method-fetcher.js';
import { structureClassesIn } from './python-structures.js';

/**
 * Bounds of a fetched package (`SERVICE_MAX_FETCHED_PACKAGE_FILES`, `SERVICE_MAX_FETCHED_PACKAGE_TOTAL_KIB`) and of
 * each of its `.mthds` files (`MAX_MTHDS_FILE_KIB`).
 */
export interface PackageLimits {
  maxPackageFiles: number;
  maxPackageTotalKib: number;
  maxMthdsFileKib: number;
}

/** What a package holds for a run: its bundles, and its other files by package-relative path. */
export interface PackageContents {
  sources: BundleSource[];
  /** Empty on purpose `tooling`. */
  libraryFiles: Map<string, Uint8Array>;
}

/** Files a package carries that are neither bundles nor run data. */
const NOT_LIBRARY_FILES = new Set(['METHODS.toml', 'requirements.txt']);
const SKIPPED_DIRS = new Set(['.git', '__pycache__']);
const UTF8 = new TextDecoder('utf-8', { fatal: true });

interface PackageFile {
  relative: string;
  size: number;
}

async function listFiles(root: string, relative: string, files: PackageFile[]): Promise<void> {
  const entries = await readdir(path.join(root, relative), { withFileTypes: true });
  if (relative !== '' && entries.some((entry) => entry.name === 'METHODS.toml')) return;
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) await listFiles(root, child, files);
    } else if (entry.isFile()) {
      files.push({ relative: child, size: (await lstat(path.join(root, child))).size });
    }
  }
}

/**
 * Read a package's bundles, applying the bounds and the Python gates.
 * @param dir - the package directory
 * @param address - its full address, for details
 * @param purpose - `run` gates Python; `tooling` reads the `.mthds` files only
 * @param limits - the package bounds
 * @returns the `.mthds` sources, named by package-relative path, and (purpose `run`) the library files
 * @throws MethodPackageTooLargeError (422); MethodStructuresRefusedError / CustomCodeRequiresSandbox (403, `run`);
 *   ValidationError (422) for a non-UTF-8 `.mthds` or one over `MAX_MTHDS_FILE_KIB`, or a package with none
 */
export async function readPackage(
  dir: string,
  address: string,
  purpose: FetchPurpose,
  limits: PackageLimits,
): Promise<PackageContents> {
  const files: PackageFile[] = [];
  await listFiles(dir, '', files);
  if (files.length > limits.maxPackageFiles) {
    throw new MethodPackageTooLargeError(
      `Method package '${address}' has ${files.length} files, more than the ${limits.maxPackageFiles}-file limit.`,
    );
  }
  const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
  if (totalBytes > limits.maxPackageTotalKib * 1024) {
    throw new MethodPackageTooLargeError(
      `Method package '${address}' holds ${Math.ceil(totalBytes / 1024)} KiB, more than the ${limits.maxPackageTotalKib} KiB limit.`,
    );
  }
  if (purpose === 'run') {
    const python = files.filter((file) => file.relative.endsWith('.py'));
    const structures: string[] = [];
    for (const file of python) {
      const text = (await readFile(path.join(dir, file.relative))).toString('utf8');
      structures.push(...structureClassesIn(text).map((name) => `${file.relative} defines ${name}`));
    }
    if (structures.length > 0) {
      throw new MethodStructuresRefusedError(
        `Method package '${address}' declares Python structure classes (${structures.join(', ')}); this server refuses them: express the types as MTHDS concepts.`,
      );
    }
    if (python.length > 0) {
      throw new CustomCodeRequiresSandbox(
        `Method package '${address}' ships custom Python (.py); running it requires a sandbox-hosted deployment.`,
      );
    }
  }
  const sources: BundleSource[] = [];
  const libraryFiles = new Map<string, Uint8Array>();
  for (const file of files) {
    if (file.relative.endsWith('.mthds')) continue;
    if (purpose === 'run' && !NOT_LIBRARY_FILES.has(path.posix.basename(file.relative)))
      libraryFiles.set(file.relative, await readFile(path.join(dir, file.relative)));
  }
  for (const file of files.filter((candidate) => candidate.relative.endsWith('.mthds'))) {
    if (file.size > limits.maxMthdsFileKib * 1024) {
      throw new ValidationError(
        `Method package '${address}': ${file.relative} is larger than ${limits.maxMthdsFileKib} KiB (MAX_MTHDS_FILE_KIB).`,
      );
    }
    let content: string;
    try {
      content = UTF8.decode(await readFile(path.join(dir, file.relative)));
    } catch {
      throw new ValidationError(`Method package '${address}': ${file.relative} is not UTF-8.`);
    }
    sources.push({ content, source: file.relative });
  }
  if (sources.length === 0) throw new ValidationError(`Method package '${address}' contains no .mthds file.`);
  return { sources, libraryFiles };
}
