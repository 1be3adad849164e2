/**
 * The seam between the routes and method packages fetched by address (`method_ref`, spec §2.2; docs/methods.md).
 * Routes depend on the {@link MethodFetcher} interface only (the git fetcher of `git-method-fetcher.ts` in production,
 * a stub in tests).
 */
import { z } from 'zod';
import type { BundleSource, PackageExports } from '../mthds/index.js';

/**
 * Where the bundles of a `method_ref` request came from (spec §2.2; docs/methods.md#shaping-and-gates), as sent on the
 * wire in
 * `method_provenance`: the full package address, the tag (null for a bare address at HEAD), the resolved commit id,
 * and the manifest's package name and version.
 */
export const METHOD_PROVENANCE = z.strictObject({
  address: z.string(),
  tag: z.string().nullable(),
  commit_sha: z.string(),
  package_name: z.string().nullable(),
  package_version: z.string().nullable(),
});

/** {@link METHOD_PROVENANCE} as a type. */
export type MethodProvenance = z.infer<typeof METHOD_PROVENANCE>;

/**
 * What a route does with the package: `run` (run routes and `/v1/validate`: custom Python is refused) or `tooling`
 * (resolve, codegen, build: only the `.mthds` files are read; docs/methods.md#shaping-and-gates).
 */
export type FetchPurpose = 'run' | 'tooling';

/**
 * A located method package: its `.mthds` bundles (sources are package-relative paths), manifest main pipe and
 * provenance.
 */
export interface FetchedMethod {
  sources: BundleSource[];
  /** The manifest's `main_pipe`, when it declares one. */
  mainPipe: string | null;
  /**
   * The package's other files (not `.mthds`, `METHODS.toml` nor `requirements.txt`) by package-relative path, which a
   * run's documents may name (docs/methods.md#shaping-and-gates); empty for purpose `tooling`.
   */
  libraryFiles: ReadonlyMap<string, Uint8Array>;
  /**
   * The `[exports]` of every manifest the fetch loaded (the package, the sibling packages and the dependencies it
   * calls), flattened: domain path → exported pipe codes, sorted. A domain no manifest lists is absent (it exports
   * everything). It is what `LoadOptions.exports` takes.
   */
  exports: PackageExports;
  provenance: MethodProvenance;
}

/** Fetches a method package by its address. */
export interface MethodFetcher {
  /**
   * Fetch (or take from the clone cache) and locate the package named by `ref`.
   * @param ref - the request's `method_ref` (1–512 chars)
   * @param purpose - which gates apply
   * @throws MethodRefNotSupported (501) for a registry form; MethodRefParseError / MethodFetchError /
   *   MethodPackageAmbiguityError / MethodPackageTooLargeError (422); MethodPackageNotFoundError (404);
   *   CustomCodeRequiresSandbox (403, purpose `run`)
   */
  fetch(ref: string, purpose: FetchPurpose): Promise<FetchedMethod>;
}
