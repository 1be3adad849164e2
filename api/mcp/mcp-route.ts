/**
 * `/mcp`: the MCP endpoint (docs/mcp.md), Streamable HTTP transport of the MCP specification through the official
 * SDK, authenticated as `/v1` is. Stateless across API replicas: every request gets a new server and transport
 * (`mcp-server.ts`). At `initialize` the endpoint gives the client an `Mcp-Session-Id` that it holds no state for: the
 * client sends it back on every request, and it names the client's calls (their idempotency keys and run ids:
 * docs/mcp.md#durable-calls). A `GET` is the client's listening stream: it is told `notifications/tools/list_changed`
 * when its organization's catalog changes on any replica (docs/mcp.md#tool-list-changes).
 */
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { z } from 'zod';
import { type JsonBodyLimits, jsonBody } from '../body/json-body.js';
import { catalogOwner } from '../method-catalog.js';
import type { Identity } from '../middleware/authenticate.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { mcpServer } from './mcp-server.js';
import type { McpCaller, McpServices } from './mcp-services.js';
import { MethodTools } from './method-tools.js';

/** The session header of the Streamable HTTP transport. */
const SESSION_HEADER = 'Mcp-Session-Id';

/** A session id as the client sends it back: visible ASCII, as the transport requires. */
const SESSION = /^[\x21-\x7E]{1,128}$/;

const MCP_MESSAGE = z.string().meta({ description: 'A JSON-RPC message, or a batch of them (MCP specification).' });

const PROTOCOL = 'the Streamable HTTP transport of the MCP specification';

/** The transport's own refusals (a missing `Accept`, a malformed message): JSON-RPC errors, as MCP clients read them. */
const JSON_RPC_ERROR = z
  .object({
    jsonrpc: z.literal('2.0'),
    error: z.object({ code: z.number().int(), message: z.string() }),
    id: z.union([z.string(), z.number(), z.null()]),
  })
  .meta({ id: 'JsonRpcError' });

const REFUSALS = {
  400: {
    description: 'The transport refuses the message (not JSON-RPC, an unsupported protocol version).',
    schema: JSON_RPC_ERROR,
  },
  406: {
    description: 'The request does not accept `text/event-stream` (and, on `POST`, `application/json`).',
    schema: JSON_RPC_ERROR,
  },
};

/** `POST`, `GET` and `DELETE /mcp`, as the OpenAPI document describes them. */
export const MCP_ROUTES: readonly RouteSpec[] = [
  {
    method: 'post',
    path: '/mcp',
    operationId: 'mcp_post',
    tag: 'mcp',
    summary: 'MCP messages',
    description: `A JSON-RPC message of ${PROTOCOL}: \`initialize\`, \`tools/list\` (the caller’s published method versions as typed tools, and the generic tools), \`tools/call\` (a durable run, with progress notifications), \`resources/list\`, \`resources/read\`, notifications. Answered as JSON-RPC in \`text/event-stream\` (docs/mcp.md).`,
    responses: {
      200: {
        description: 'The answer, as Server-Sent Events of JSON-RPC messages.',
        schema: MCP_MESSAGE,
        contentType: 'text/event-stream',
      },
      202: { description: 'A notification or a response was accepted.' },
      ...REFUSALS,
    },
    problems: ['ValidationError', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServerBusyError'],
  },
  {
    method: 'get',
    path: '/mcp',
    operationId: 'mcp_get',
    tag: 'mcp',
    summary: 'MCP listening stream',
    description: `The client’s listening stream of ${PROTOCOL}: \`notifications/tools/list_changed\` and \`notifications/resources/list_changed\` when the caller’s catalog changes (docs/mcp.md#tool-list-changes).`,
    responses: {
      200: {
        description: 'The stream of JSON-RPC notifications.',
        schema: MCP_MESSAGE,
        contentType: 'text/event-stream',
      },
      ...REFUSALS,
    },
    problems: [],
  },
  {
    method: 'delete',
    path: '/mcp',
    operationId: 'mcp_delete',
    tag: 'mcp',
    summary: 'End an MCP session',
    description: 'Ends a client’s session; the endpoint keeps none, so nothing is left to end (docs/mcp.md).',
    responses: { 200: { description: 'Ended.' }, ...REFUSALS },
    problems: [],
  },
];

/** What the endpoint needs besides its services: the body limits and the pool that decodes large bodies. */
export interface McpRouterOptions extends JsonBodyLimits {
  diagnostics: DiagnosticsPool;
  services: McpServices;
}

function callerOf(req: Request, res: Response, session: string | undefined): McpCaller {
  return { identity: res.locals.identity as Identity, requestId: res.locals.requestId as string, session, req };
}

function sentSession(req: Request): string | undefined {
  const session = req.get(SESSION_HEADER);
  return session !== undefined && SESSION.test(session) ? session : undefined;
}

function opensSession(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}

/**
 * Router serving `/mcp`.
 * @param options - body limits, the pool, the endpoint's services
 */
export function mcpRouter(options: McpRouterOptions): Router {
  const { services } = options;
  const tools = new MethodTools(services);
  const router = Router();

  const serve =
    (listen: boolean): RequestHandler =>
    async (req, res) => {
      let session = sentSession(req);
      if (req.method === 'POST' && opensSession(req.body)) {
        session = randomUUID();
        res.setHeader(SESSION_HEADER, session);
      }
      const caller = callerOf(req, res, session);
      const server = mcpServer(services, tools, caller);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const owner = catalogOwner(caller.identity);
      const unlisten = listen
        ? services.changes.listen((changed) => {
            if (changed !== owner) return;
            void server.sendToolListChanged().catch(() => undefined);
            void server.sendResourceListChanged().catch(() => undefined);
          })
        : undefined;
      res.on('close', () => {
        unlisten?.();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    };

  router.post('/mcp', jsonBody(options, 'typed', options.diagnostics), serve(false));
  router.get('/mcp', serve(true));
  router.delete('/mcp', serve(false));
  return router;
}
