/**
 * The part of a `METHODS.toml` manifest that package location and dependency loading read: the package identity
 * (`address`, `name`), `version`, `main_pipe`, and the `[dependencies]` table of the spec (alias → `{address, version}`).
 * Other keys are not checked here: the manifest is located, not linted.
 *
 * @see CLIENTS.md §6.1, §6.5; LANGUAGE.md §7.1
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
  const { package: pkg, dependencies } = checked.data;
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
    },
  };
}
