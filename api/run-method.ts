/**
 * The sources of a run request, `method_ref` included (spec §2.2–2.3; docs/api.md#post-v1execute processing order, step
 * 4): its bundle ({@link runSources}; the source rules are the request schema's), or, for a `method_ref`, the fetch.
 * `pipe_code` overrides the manifest's `main_pipe`; the package's other files become the run's library files
 * (documents may name them by path); the fetch's provenance travels with the run to its result.
 */
import { type BundleLimits, LibraryFiles } from '../shared/bundles/index.js';
import type { MethodFetcher } from '../shared/methods/index.js';
import { type ResolvedRunSources, type RunRequestBody, runSources } from './run-request.js';

/**
 * Read a run's bundle, or fetch its `method_ref`.
 * @param body - a parsed run request
 * @param options - the ceilings of a submitted bundle, and the deployment's method fetcher
 * @throws what {@link runSources} throws; whatever {@link MethodFetcher.fetch} throws (501 for a registry form,
 *   422 / 404 / 403)
 */
export async function resolveRunSources(
  body: RunRequestBody,
  options: { bundleLimits: BundleLimits; fetcher: MethodFetcher },
): Promise<ResolvedRunSources> {
  const run = await runSources(body, options.bundleLimits);
  if (!body.method_ref) return { ...run, pipeCode: body.pipe_code ?? null, methodProvenance: null };
  const fetched = await options.fetcher.fetch(body.method_ref, 'run');
  return {
    sources: fetched.sources,
    ...(fetched.libraryFiles.size > 0 ? { libraryFiles: new LibraryFiles(fetched.libraryFiles) } : {}),
    packageExports: fetched.exports,
    pipeCode: body.pipe_code ?? fetched.mainPipe,
    methodProvenance: fetched.provenance,
  };
}
