/**
 * The sources of a run request, `method_ref` included (spec §2.2–2.3; API-CONTRACT.md §3.5 processing order, step
 * 4): the source rules first ({@link runSources}), then, for a `method_ref`, the fetch. `pipe_code` overrides the
 * manifest's `main_pipe`; the fetch's provenance travels with the run to its result.
 */
import { MethodRefNotSupported } from '../shared/errors/index.js';
import type { BundleLimits } from '../shared/bundles/index.js';
import type { MethodFetcher } from '../shared/methods/index.js';
import { runSources, type ResolvedRunSources, type RunRequestBody } from './run-request.js';

/**
 * Apply the source rules and fetch a `method_ref`.
 * @param body - a parsed run request
 * @param options - the ceilings of a submitted bundle, and the deployment's method fetcher
 * @throws what {@link runSources} throws; MethodRefNotSupported (501) without a fetcher or for a registry form;
 *   whatever {@link MethodFetcher.fetch} throws (422 / 404 / 403)
 */
export async function resolveRunSources(body: RunRequestBody, options: { bundleLimits: BundleLimits; fetcher: MethodFetcher | undefined }): Promise<ResolvedRunSources> {
  const { fetcher } = options;
  const run = await runSources(body, options.bundleLimits);
  if (!body.method_ref) return { ...run, pipeCode: body.pipe_code ?? null, methodProvenance: null };
  if (!fetcher) throw new MethodRefNotSupported('method_ref is not served by this deployment; send the bundle text in mthds_contents.');
  const fetched = await fetcher.fetch(body.method_ref, 'run');
  return { sources: fetched.sources, pipeCode: body.pipe_code ?? fetched.mainPipe, methodProvenance: fetched.provenance };
}
