/**
 * The generic tools (docs/mcp.md#generic-tools), with which an agent authors and tests a method before it publishes it
 * and calls it as a method tool: list the caller's methods, validate a bundle, get a pipe's inputs template, run an
 * inline bundle (a durable call, as a method tool's), read a run's status and results. Each reads its arguments with a
 * zod schema (its `inputSchema` is that schema as JSON Schema), then calls what the matching HTTP route calls.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ValidationError } from '../../shared/errors/index.js';
import { methodListPage, runResultsBody } from '../../shared/wire/index.js';
import { catalogOwner } from '../method-catalog.js';
import { parseRequest } from '../request-schema.js';
import { METHOD_ID } from '../requests/method-id.js';
import { readProgress, runEnded, runStatusBody } from '../routes/runs.js';
import { readOwnedOrKeptRun } from '../run-ownership.js';
import { withFetchableUrls } from '../storage-urls.js';
import { storedMethodSources } from '../stored-method-sources.js';
import { answerOf, callRun, type ToolExtra } from './durable-call.js';
import { encodedJsonValue, rawJson } from './mcp-json.js';
import type { McpCaller, McpServices } from './mcp-services.js';

/** A generic tool: its description, its arguments' schema, and what it does. */
interface GenericTool<T extends z.ZodType> {
  description: string;
  title: string;
  schema: T;
  call(services: McpServices, caller: McpCaller, args: z.infer<T>, extra: ToolExtra): Promise<CallToolResult>;
}

/** Methods listed per call of `mthds_list_methods`. */
const METHODS_PER_PAGE = 50;

const BUNDLES = z
  .array(z.string().min(1))
  .min(1)
  .max(16)
  .meta({ description: 'The bundle’s `.mthds` texts (docs/bundle-format.md).' });
const RUN_ID = z.string().min(1).max(128).meta({ description: 'The run’s `pipeline_run_id`.' });

function json(value: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

function noCatalog(): ValidationError {
  return new ValidationError('This deployment keeps no methods catalog (it has no control plane).');
}

function tool<T extends z.ZodType>(definition: GenericTool<T>): GenericTool<T> {
  return definition;
}

const TOOLS = {
  mthds_list_methods: tool({
    title: 'List methods',
    description:
      'List the methods of your catalog, newest first, 50 a page (`cursor`: the `next_cursor` of the page before); `q` searches names and descriptions. Each published version is also a tool of its own, named `<method_id>_v<version>`.',
    schema: z.strictObject({
      q: z.string().min(1).max(200).optional(),
      cursor: z.string().min(1).max(512).optional(),
    }),
    async call(services, caller, args) {
      if (!services.catalog) throw noCatalog();
      const page = await (await services.catalog).methods.list(catalogOwner(caller.identity), {
        limit: METHODS_PER_PAGE,
        ...(args.q === undefined ? {} : { q: args.q }),
        ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
      });
      return json(methodListPage(page));
    },
  }),
  mthds_validate_bundle: tool({
    title: 'Validate a bundle',
    description:
      'Validate a bundle as `POST /v1/validate` does: the verdict (valid or not, its errors, its pipes’ I/O contracts and whether it runs).',
    schema: z.strictObject({ mthds_contents: BUNDLES }),
    async call(services, caller, args, extra) {
      const answer = await services.diagnose('validate', rawJson(args), caller.identity, extra.signal);
      return json(encodedJsonValue(answer));
    },
  }),
  mthds_inputs_template: tool({
    title: 'Inputs template',
    description:
      'The inputs a pipe takes, as a JSON template to fill (`POST /v1/build/inputs`): of an inline bundle (`mthds_contents`) or of a stored method (`method_id`: `mt_…`, `mt_…@<n>` or `mt_…@draft`); `pipe_ref` selects a pipe other than the main one.',
    schema: z.strictObject({
      mthds_contents: BUNDLES.optional(),
      method_id: METHOD_ID.optional(),
      pipe_ref: z.string().min(1).max(256).optional(),
    }),
    async call(services, caller, args, extra) {
      if ((args.mthds_contents === undefined) === (args.method_id === undefined))
        throw new ValidationError('arguments: give exactly one of mthds_contents or method_id');
      const files = args.method_id
        ? (await storedMethodSources(services.catalog, caller.identity, args.method_id, 'tooling')).sources
        : args.mthds_contents!.map((content) => ({ content }));
      const body = { files, format: 'json', ...(args.pipe_ref ? { pipe_ref: args.pipe_ref } : {}) };
      const answer = await services.diagnose('buildInputs', rawJson(body), caller.identity, extra.signal);
      return json(encodedJsonValue(answer));
    },
  }),
  mthds_run_bundle: tool({
    title: 'Run an inline bundle',
    description:
      'Run a bundle given inline (`mthds_contents`) with `inputs` (docs/api.md#inputs); `pipe_code` selects a pipe other than the main one. Waits for the run, reporting progress, and answers its output; a long run answers its `pipeline_run_id` instead: read it with mthds_run_status and mthds_run_results.',
    schema: z.strictObject({
      mthds_contents: BUNDLES,
      inputs: z.record(z.string(), z.unknown()).optional(),
      pipe_code: z.string().min(1).max(256).optional(),
    }),
    call: (services, caller, args, extra) => callRun(services, caller, { ...args }, extra),
  }),
  mthds_run_status: tool({
    title: 'Run status',
    description:
      'Where one of your runs stands (`GET /v1/runs/{id}/status`): PENDING, RUNNING, COMPLETED, FAILED, CANCELLED or TIMED_OUT, its progress, usage and error.',
    schema: z.strictObject({ pipeline_run_id: RUN_ID }),
    async call(services, caller, args) {
      const reading = readProgress(services.events, args.pipeline_run_id);
      const record = await readOwnedOrKeptRun(
        services.store,
        services.objects,
        args.pipeline_run_id,
        caller.identity,
        undefined,
      );
      return json(await runStatusBody(record, reading, services.disclosure));
    },
  }),
  mthds_run_results: tool({
    title: 'Run results',
    description:
      'The result of one of your runs (`GET /v1/runs/{id}/results`): its main output, working memory, graph and usage once it completed; its status while it runs; its error when it failed or stopped.',
    schema: z.strictObject({ pipeline_run_id: RUN_ID }),
    async call(services, caller, args) {
      const record = await readOwnedOrKeptRun(
        services.store,
        services.objects,
        args.pipeline_run_id,
        caller.identity,
        undefined,
      );
      if (!runEnded(record) || !record.result) return answerOf(services, caller, record);
      const body = runResultsBody(record.result, record.io_artifacts);
      return json(await withFetchableUrls(body, caller.identity, { links: services.links, req: caller.req }));
    },
  }),
};

/** The name of a generic tool. */
type GenericToolName = keyof typeof TOOLS;

function isGeneric(name: string): name is GenericToolName {
  return Object.hasOwn(TOOLS, name);
}

/** The generic tools, as `tools/list` lists them. */
export function genericTools(): Tool[] {
  return Object.entries(TOOLS).map(([name, definition]) => ({
    name,
    title: definition.title,
    description: definition.description,
    inputSchema: z.toJSONSchema(definition.schema, { io: 'input' }) as Tool['inputSchema'],
  }));
}

/**
 * Call a generic tool.
 * @param name - the tool's name
 * @param args - its arguments, as the client sent them
 * @returns the result, or undefined when no generic tool has the name
 * @throws ValidationError (422) for arguments its schema refuses; what its route throws
 */
export async function callGenericTool(
  services: McpServices,
  caller: McpCaller,
  name: string,
  args: unknown,
  extra: ToolExtra,
): Promise<CallToolResult | undefined> {
  if (!isGeneric(name)) return undefined;
  const definition = TOOLS[name] as GenericTool<z.ZodType>;
  return definition.call(services, caller, parseRequest(definition.schema, args ?? {}, 'arguments'), extra);
}
