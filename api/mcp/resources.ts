/**
 * The endpoint's resources (docs/mcp.md#resources): a run's results and its graph, and the `.mthds` source of a
 * published method version, each read as the matching HTTP route reads it, for the caller only (another caller's run
 * or method answers as an unknown one).
 */
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { methodFiles } from '../../shared/database/index.js';
import { RunResultUnavailableError, ValidationError } from '../../shared/errors/index.js';
import { runResultsBody } from '../../shared/wire/index.js';
import { catalogOwner } from '../method-catalog.js';
import { runEnded, runStatus } from '../routes/runs.js';
import { readOwnedOrKeptRun } from '../run-ownership.js';
import { withFetchableUrls } from '../storage-urls.js';
import type { McpCaller, McpServices } from './mcp-services.js';
import { cursorOf, positionOf } from './method-tools.js';

const RESULTS = /^mthds:\/\/runs\/([^/?#]{1,128})\/results$/;
const GRAPH = /^mthds:\/\/runs\/([^/?#]{1,128})\/graph$/;
const SOURCE = /^mthds:\/\/methods\/(mt_[A-Za-z0-9_-]{1,40})\/versions\/([1-9][0-9]{0,8})\/source$/;

/** The `.mthds` files' media type (TOML: docs/bundle-format.md). */
const MTHDS_TYPE = 'application/toml';

/** Sources listed per page of `resources/list`. */
const SOURCES_PER_PAGE = 50;

/** The URI templates of the resources. */
export function resourceTemplates(): ResourceTemplate[] {
  return [
    {
      uriTemplate: 'mthds://runs/{pipeline_run_id}/results',
      name: 'run-results',
      title: 'Run results',
      description: 'A completed run’s results: main output, working memory, graph, I/O contracts, usage.',
      mimeType: 'application/json',
    },
    {
      uriTemplate: 'mthds://runs/{pipeline_run_id}/graph',
      name: 'run-graph',
      title: 'Run graph',
      description: 'The execution graph of a completed run (docs/graph-spec.md).',
      mimeType: 'application/json',
    },
    {
      uriTemplate: 'mthds://methods/{method_id}/versions/{version}/source',
      name: 'method-source',
      title: 'Method source',
      description: 'The `.mthds` files of a published method version.',
      mimeType: MTHDS_TYPE,
    },
  ];
}

function sourceUri(methodId: string, version: number): string {
  return `mthds://methods/${methodId}/versions/${version}/source`;
}

/**
 * A page of the sources of the caller's published method versions.
 * @param services - the endpoint's services
 * @param caller - the caller
 * @param cursor - the page's cursor; undefined for the first
 * @throws RangeError for a cursor this endpoint never gave
 */
export async function listResources(
  services: McpServices,
  caller: McpCaller,
  cursor: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  if (!services.catalog) return { resources: [] };
  const after = cursor === undefined ? undefined : positionOf(cursor);
  if (cursor !== undefined && after === undefined) throw new RangeError(`Unknown cursor '${cursor}'.`);
  const page = await (await services.catalog).versions.published(catalogOwner(caller.identity), {
    limit: SOURCES_PER_PAGE,
    ...(after ? { after } : {}),
  });
  const resources = page.items.map((version) => ({
    uri: sourceUri(version.methodId, version.version),
    name: `${version.methodId}_v${version.version}.mthds`,
    title: `${version.name} (v${version.version}) source`,
    mimeType: MTHDS_TYPE,
  }));
  return { resources, ...(page.next ? { nextCursor: cursorOf(page.next) } : {}) };
}

async function completedRun(services: McpServices, caller: McpCaller, runId: string) {
  const record = await readOwnedOrKeptRun(services.store, services.objects, runId, caller.identity, undefined);
  const status = runStatus(record);
  if (!runEnded(record) || !record.result)
    throw new RunResultUnavailableError(`Run '${runId}' has no result (status ${status}).`, status, null);
  return { result: record.result, io: record.io_artifacts };
}

/**
 * Read a resource.
 * @param services - the endpoint's services
 * @param caller - the caller
 * @param uri - the resource's URI
 * @throws ValidationError (422) for a URI no resource has; RunNotFoundError (404), RunResultUnavailableError (409)
 *   for a run without a result; MethodNotFoundError (404), MethodVersionNotFoundError (404)
 */
export async function readResource(services: McpServices, caller: McpCaller, uri: string): Promise<ReadResourceResult> {
  const results = RESULTS.exec(uri);
  if (results) {
    const { result, io } = await completedRun(services, caller, results[1]!);
    const body = runResultsBody(result, io);
    const linked = await withFetchableUrls(body, caller.identity, { links: services.links, req: caller.req });
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(linked) }] };
  }
  const graph = GRAPH.exec(uri);
  if (graph) {
    const { result } = await completedRun(services, caller, graph[1]!);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result.pipe_output.graph_spec) }] };
  }
  const source = SOURCE.exec(uri);
  if (source) {
    if (!services.catalog) throw new ValidationError('This deployment keeps no methods catalog.');
    const version = await (await services.catalog).versions.get(
      catalogOwner(caller.identity),
      source[1]!,
      Number(source[2]),
    );
    const files = methodFiles(version.mthds);
    return {
      contents: files.map((file) => ({
        uri,
        mimeType: MTHDS_TYPE,
        text: file.content,
        ...(file.name ? { _meta: { 'mthds/file': file.name } } : {}),
      })),
    };
  }
  throw new ValidationError(`uri: no resource is named '${uri}'.`);
}
