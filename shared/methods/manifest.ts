/**
 * The part of a `METHODS.toml` manifest that package location and dependency loading read: the package identity
 * (`address`, `name`), `version`, `main_pipe`, the `[dependencies]` table of the spec (alias → `{address, version}`)
 * and the `[exports]` tables (nested by domain path, each level's `pipes` its exported pipe codes), flattened.
 * Other keys are not checked here: the manifest is located, not linted.
 *
 * @see docs/packages.md, docs/methods.md#grammar; docs/packages.md
 */
import { parse } from 'smol-toml';
import { z } from 'zod';

const MANIFEST = z.looseObject({
  package: z.looseObject({
    address: z.string().min(1),
    name: z.string().min(1).optional(),
    version: z.string().optional(),
    main_pipe: z.string().optional(),
  }),
  dependencies: z
    .record(z.string(), z.looseObject({ address: z.string().min(1), version: z.string().min(1) }))
    .optional(),
});

/** A manifest as package location sees it. */
export interface Manifest {
  address: string;
  name: string | null;
  version: string | null;
  mainPipe: string | null;
  /** `[dependencies]`: alias → address and version constraint (usually a tag such as `v1.2.0`). */
  dependencies: { alias: string; address: string; version: string }[];
  /** `address/name`, or `address` for a manifest without a name. */
  fullAddress: string;
  /**
   * `[exports]` flattened: domain path (`legal.contracts`) → exported pipe codes; null without an `[exports]` table.
   * Malformed levels (a `pipes` that is not a list of strings) are skipped: the manifest is located, not linted.
   */
  exports: ReadonlyMap<string, ReadonlySet<string>> | null;
}

function flattenExports(
  table: Record<string, unknown>,
  path: string,
  into: Map<string, ReadonlySet<string>>,
): Map<string, ReadonlySet<string>> {
  for (const [key, value] of Object.entries(table)) {
    if (key === 'pipes' && Array.isArray(value) && path !== '')
      into.set(path, new Set(value.filter((code): code is string => typeof code === 'string')));
    else if (key !== 'pipes' && value !== null && typeof value === 'object' && !Array.isArray(value))
      flattenExports(value as Record<string, unknown>, path === '' ? key : `${path}.${key}`, into);
  }
  return into;
}

/**
 * Read a manifest's text.
 * @param text - the UTF-8 text of a `METHODS.toml`
 * @returns the manifest, or a reason it is skipped (not TOML, no `[package]` address, …)
 */
export function readManifest(text: string): { manifest: Manifest } | { skipped: string } {
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    return { skipped: `not parseable (${(error as Error).message.split('\n')[0]})` };
  }
  const checked = MANIFEST.safeParse(data);
  if (!checked.success)
    return {
      skipped: `not a package manifest (${checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')})`,
    };
  const { package: pkg, dependencies, exports } = checked.data;
  const address = pkg.address.replace(/\/+$/, '');
  return {
    manifest: {
      address,
      name: pkg.name ?? null,
      version: pkg.version ?? null,
      mainPipe: pkg.main_pipe ?? null,
      dependencies: Object.entries(dependencies ?? {}).map(([alias, dependency]) => ({
        alias,
        address: dependency.address,
        version: dependency.version,
      })),
      fullAddress: pkg.name ? `${address}/${pkg.name}` : address,
      exports:
        exports !== null && typeof exports === 'object' && !Array.isArray(exports)
          ? flattenExports(exports as Record<string, unknown>, '', new Map())
          : null,
    },
  };
}
