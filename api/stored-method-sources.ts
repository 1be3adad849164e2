/**
 * `method_id` on the run and tooling routes (docs/methods.md#method_id): the sources a selector names in the caller's
 * catalog, and the link of a run whose inline sources belong to a stored method.
 */
import { methodFiles } from '../shared/database/index.js';
import { CustomCodeRequiresSandbox, ValidationError } from '../shared/errors/index.js';
import type { FetchPurpose } from '../shared/methods/index.js';
import type { BundleSource } from '../shared/mthds/index.js';
import type { MethodLink } from '../shared/orchestration/index.js';
import { catalogOwner, type MethodCatalog, methodBundleSources } from './method-catalog.js';
import type { Identity } from './middleware/authenticate.js';
import { parseMethodSelector } from './requests/method-id.js';

/** What a `method_id` alone runs or reads. */
export interface StoredMethodSources {
  /** Its `.mthds` files, each labelled with its file name (a raw text, with the method's id). */
  sources: BundleSource[];
  /** The method and the published version selected (null for the draft). */
  link: MethodLink;
}

function noCatalog(): ValidationError {
  return new ValidationError(
    'method_id: this deployment keeps no methods catalog (it has no control plane); send the bundle inline (mthds_contents, files) or by address (method_ref).',
  );
}

/**
 * The sources a `method_id` names in the caller's catalog.
 * @param catalog - the catalog, when this deployment serves one
 * @param identity - the caller (its own id owns the catalog rows it may name)
 * @param value - the `method_id`, checked by `METHOD_ID`
 * @param purpose - `run` (a run, or `/v1/validate`: a method with Python is refused as a package with Python is) or
 *   `tooling` (only its `.mthds` files are read)
 * @throws ValidationError (422) without a catalog or for a method holding no `.mthds` file; MethodNotFoundError (404,
 *   code `not_found`) for an unknown or another owner's method; MethodBeingDeletedError (409); MethodNotPublishedError
 *   (409) and MethodVersionNotFoundError (404) for a version it lacks; CustomCodeRequiresSandbox (403) for a run of a
 *   method with Python files
 */
export async function storedMethodSources(
  catalog: Promise<MethodCatalog> | undefined,
  identity: Identity,
  value: string,
  purpose: FetchPurpose,
): Promise<StoredMethodSources> {
  if (!catalog) throw noCatalog();
  const { methodId, selector } = parseMethodSelector(value);
  const selected = await (await catalog).versions.select(catalogOwner(identity), methodId, selector);
  if (purpose === 'run' && methodFiles(selected.python).length > 0)
    throw new CustomCodeRequiresSandbox(
      `Method '${methodId}' has custom Python files; running it requires a sandbox-hosted deployment.`,
    );
  const sources = methodBundleSources(selected.mthds, methodId);
  if (sources.length === 0) throw new ValidationError(`method_id: method '${methodId}' holds no .mthds source.`);
  return { sources, link: { methodId, version: selected.version } };
}

/**
 * The link of a run whose inline sources run under a stored method (a bare `method_id` beside them).
 * @param catalog - the catalog, when this deployment serves one
 * @param identity - the caller
 * @param value - the bare `method_id`
 * @returns the link, with no version: the inline sources ran
 * @throws ValidationError (422) without a catalog; MethodNotFoundError (404); MethodBeingDeletedError (409)
 */
export async function linkedMethod(
  catalog: Promise<MethodCatalog> | undefined,
  identity: Identity,
  value: string,
): Promise<MethodLink> {
  if (!catalog) throw noCatalog();
  const { methodId } = parseMethodSelector(value);
  await (await catalog).methods.get(catalogOwner(identity), methodId);
  return { methodId, version: null };
}
