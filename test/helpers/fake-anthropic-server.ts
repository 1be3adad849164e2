/**
 * A fake Anthropic provider: a real HTTP server on 127.0.0.1 (port 0) speaking the Messages API wire format. It
 * records requests; by default it answers text, or a `tool_use` block with a schema-valid input when a tool is forced.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mockValueForSchema } from '../../shared/inference/index.js';

/** The parts of a Messages request the tests read. */
export interface MessagesRequestBody {
  model?: string;
  max_tokens?: number;
  system?: string;
  temperature?: number;
  messages?: { role: string; content: unknown }[];
  tools?: { name: string; input_schema: Record<string, unknown> }[];
  tool_choice?: { type: string; name?: string };
}

/** A request the fake received. */
export interface RecordedMessagesRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: MessagesRequestBody;
}

/** What the fake answers. */
export interface FakeAnthropicReply {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** A running fake. */
export interface FakeAnthropicServer {
  readonly baseUrl: string;
  readonly requests: RecordedMessagesRequest[];
  respondWith(handler: (request: RecordedMessagesRequest) => FakeAnthropicReply): void;
  close(): Promise<void>;
}

/**
 * A Messages API answer.
 * @param content - content blocks
 * @param stopReason - `end_turn`, `tool_use`, `max_tokens`, `refusal`
 */
export function messageReply(content: unknown[], stopReason = 'end_turn'): FakeAnthropicReply {
  return {
    body: { id: 'msg_fake', type: 'message', role: 'assistant', model: 'claude-fake', content, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 20, output_tokens: 9 } },
  };
}

function defaultReply(request: RecordedMessagesRequest): FakeAnthropicReply {
  const tool = request.body.tools?.[0];
  if (tool) return messageReply([{ type: 'tool_use', id: 'toolu_fake', name: tool.name, input: mockValueForSchema(tool.input_schema, 'fake') }], 'tool_use');
  return messageReply([{ type: 'text', text: 'Hello from the fake Anthropic provider.' }]);
}

/** Start the fake on 127.0.0.1, port 0. */
export async function startFakeAnthropicServer(): Promise<FakeAnthropicServer> {
  const requests: RecordedMessagesRequest[] = [];
  let handler = defaultReply;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedMessagesRequest = { path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as MessagesRequestBody };
      requests.push(recorded);
      const authorised = Boolean(req.headers['x-api-key']) || /^Bearer \S+/.test(req.headers.authorization ?? '');
      const reply = authorised ? handler(recorded) : { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } };
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    respondWith(next) {
      handler = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
