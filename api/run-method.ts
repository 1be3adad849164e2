/**
 * The sources of a run request, `method_ref` and `method_id` included (spec §2.2–2.3; docs/api.md#post-v1execute
 * processing order, step 4; docs/methods.md#method_id): its bundle ({@link runSources}; the source rules are the
 * request schema's), the fetch of a `method_ref`, or the stored method a `method_id` alone names. `pipe_code`
 * overrides the manifest's `main_pipe`; a fetched package's other files become the run's library files (documents may
 * name them by path); the fetch's provenance travels with the run to its result; a `method_id` beside inline sources
 * links the run to its method.
 */
import { type BundleLimits, LibraryFiles } from '../shared/bundles/index.js';
import type { MethodFetcher } from '../shared/methods/index.js';
import type { MethodCatalog } from './method-catalog.js';
import type { Identity } from './middleware/authenticate.js';
import { hasInlineSources, type ResolvedRunSources, type RunRequestBody, runSources } from './run-request.js';
import { linkedMethod, storedMethodSources } from './stored-method-sources.js';

/** Where a run's sources come from besides the request. */
export interface RunSourceOptions {
  /** Ceilings of a submitted bundle. */
  bundleLimits: BundleLimits;
  /** The deployment's method fetcher (`method_ref`). */
  fetcher: MethodFetcher;
  /** The methods catalog (`method_id`), when this deployment serves one. */
  catalog?: Promise<MethodCatalog> | undefined;
  /** The caller, whose catalog a `method_id` names. */
  identity: Identity;
}

/**
 * Read a run's bundle, fetch its `method_ref`, or look its `method_id` up.
 * @param body - a parsed run request
 * @param options - the ceilings of a submitted bundle, the method fetcher, the catalog and the caller
 * @throws what {@link runSources} throws; whatever {@link MethodFetcher.fetch} throws (501 for a registry form,
 *   422 / 404 / 403); for a `method_id`, what {@link storedMethodSources} and {@link linkedMethod} throw (422 without a
 *   catalog, 404 `not_found`, 409 `method_being_deleted`, 409 `method_not_published`, 404 `method_version_not_found`,
 *   403 for a method with Python)
 */
export async function resolveRunSources(body: RunRequestBody, options: RunSourceOptions): Promise<ResolvedRunSources> {
  if (body.method_id && !hasInlineSources(body)) {
    const stored = await storedMethodSources(options.catalog, options.identity, body.method_id, 'run');
    return {
      sources: stored.sources,
      pipeCode: body.pipe_code ?? null,
      methodProvenance: null,
      methodLink: stored.link,
    };
  }
  const run = await runSources(body, options.bundleLimits);
  if (!body.method_ref) {
    const methodLink = body.method_id ? await linkedMethod(options.catalog, options.identity, body.method_id) : null;
    return { ...run, pipeCode: body.pipe_code ?? null, methodProvenance: null, methodLink };
  }
  const fetched = await options.fetcher.fetch(body.method_ref, 'run');
  return {
    sources: fetched.sources,
    ...(fetched.libraryFiles.size > 0 ? { libraryFiles: new LibraryFiles(fetched.libraryFiles) } : {}),
    packageExports: fetched.exports,
    pipeCode: body.pipe_code ?? fetched.mainPipe,
    methodProvenance: fetched.provenance,
    methodLink: null,
  };
}
