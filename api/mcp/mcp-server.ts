/**
 * The MCP server of one HTTP request of the endpoint (docs/mcp.md): a new server per request, the stateless pattern
 * of the SDK's Streamable HTTP transport, so any API replica answers any request. It lists the generic tools and the
 * caller's method tools, calls them, lists and reads the resources, and stops the run of a cancelled call.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  CancelledNotificationSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { renderProblem } from '../../shared/errors/index.js';
import { IMPLEMENTATION_VERSION } from '../../shared/version.js';
import { callRun, cancelCallRun } from './durable-call.js';
import { callGenericTool, genericTools } from './generic-tools.js';
import type { McpCaller, McpServices } from './mcp-services.js';
import type { MethodTools } from './method-tools.js';
import { listResources, readResource, resourceTemplates } from './resources.js';
import { parseMethodToolName } from './tool-names.js';

/** What the server says of itself to a client at `initialize`. */
const INSTRUCTIONS =
  'Each published version of your methods is a tool named <method_id>_v<version>; its input schema is the method’s input contract. A call runs the method and answers its output, or, for a long run, its pipeline_run_id (read it with mthds_run_status and mthds_run_results). The mthds_* tools list methods, validate bundles, give inputs templates and run inline bundles.';

function problemOf(services: McpServices, caller: McpCaller, error: unknown) {
  const problem = renderProblem(error, {
    instance: '/mcp',
    requestId: caller.requestId,
    docsUrl: services.docsUrl,
    disclosure: services.disclosure,
  });
  if (problem.status >= 500) services.logger.error({ request_id: caller.requestId, err: error }, 'MCP request failed');
  return problem.body;
}

/** A failed call as a tool result: the problem document the HTTP route would answer. */
function toolError(services: McpServices, caller: McpCaller, error: unknown): CallToolResult {
  const problem = problemOf(services, caller, error);
  return {
    isError: true,
    content: [
      { type: 'text', text: `${problem.title}: ${problem.detail}` },
      { type: 'text', text: JSON.stringify(problem) },
    ],
  };
}

/** A failed read as a JSON-RPC error carrying the problem document. */
function requestError(services: McpServices, caller: McpCaller, error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof RangeError) return new McpError(ErrorCode.InvalidParams, error.message);
  const problem = problemOf(services, caller, error);
  const code = problem.status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidParams;
  return new McpError(code, `${problem.title}: ${problem.detail}`, problem);
}

/**
 * Build the server of one HTTP request.
 * @param services - the endpoint's services
 * @param tools - the method tools (kept across requests)
 * @param caller - who calls, and its session
 * @returns the server, not yet connected to its transport
 */
export function mcpServer(services: McpServices, tools: MethodTools, caller: McpCaller): Server {
  const server = new Server(
    { name: 'mthds-runner', version: IMPLEMENTATION_VERSION },
    { capabilities: { tools: { listChanged: true }, resources: { listChanged: true } }, instructions: INSTRUCTIONS },
  );
  const failing =
    <T>(act: () => Promise<T>) =>
    async (): Promise<T> => {
      try {
        return await act();
      } catch (error) {
        throw requestError(services, caller, error);
      }
    };
  server.setRequestHandler(ListToolsRequestSchema, (request) =>
    failing(async () => {
      const cursor = request.params?.cursor;
      const page = await tools.page(caller.identity, cursor);
      return {
        tools: cursor === undefined ? [...genericTools(), ...page.tools] : page.tools,
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    })(),
  );
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    try {
      const generic = await callGenericTool(services, caller, name, args, extra);
      if (generic) return generic;
      const ref = parseMethodToolName(name);
      if (!ref) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      const run = { method_id: `${ref.methodId}@${ref.version}`, inputs: args ?? {} };
      return await callRun(services, caller, run, extra);
    } catch (error) {
      if (error instanceof McpError) throw error;
      return toolError(services, caller, error);
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    failing(() => listResources(services, caller, request.params?.cursor))(),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: resourceTemplates(),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    failing(() => readResource(services, caller, request.params.uri))(),
  );
  server.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
    const requestId = notification.params.requestId;
    if (requestId === undefined) return;
    await cancelCallRun(services, caller, requestId).catch((error: unknown) => {
      services.logger.warn({ request_id: caller.requestId, err: error }, 'MCP call cancellation failed');
    });
  });
  return server;
}
