/**
 * The sources of a run request, `method_ref` included (spec §2.2–2.3; API-CONTRACT.md §3.5 processing order, step
 * 4): the source rules first ({@link runSources}), then, for a `method_ref`, the fetch. `pipe_code` overrides the
 * manifest's `main_pipe`; the fetch's provenance travels with the run to its result.
 */
import { MethodRefNotSupported } from '../shared/errors/index.js';
import type { MethodFetcher, MethodProvenance } from '../shared/methods/index.js';
import type { BundleSource } from '../shared/mthds/index.js';
import { runSources, type RunRequestBody } from './run-request.js';

/** What a run executes: its bundles, the pipe to run (null: the library's main pipe) and where a fetched method came from. */
export interface RunSources {
  sources: BundleSource[];
  pipeCode: string | null;
  methodProvenance: MethodProvenance | null;
}

/**
 * Apply the source rules and fetch a `method_ref`.
 * @param body - a parsed run request
 * @param fetcher - the deployment's method fetcher
 * @throws ValidationError (422) for conflicting or missing sources; MethodRefNotSupported (501) without a fetcher or
 *   for a registry form; whatever {@link MethodFetcher.fetch} throws (422 / 404 / 403)
 */
export async function resolveRunSources(body: RunRequestBody, fetcher: MethodFetcher | undefined): Promise<RunSources> {
  const sources = await runSources(body);
  if (!body.method_ref) return { sources, pipeCode: body.pipe_code ?? null, methodProvenance: null };
  if (!fetcher) throw new MethodRefNotSupported('method_ref is not served by this deployment; send the bundle text in mthds_contents.');
  const fetched = await fetcher.fetch(body.method_ref, 'run');
  return { sources: fetched.sources, pipeCode: body.pipe_code ?? fetched.mainPipe, methodProvenance: fetched.provenance };
}
