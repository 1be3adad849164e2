/**
 * A fake Anthropic provider: a real HTTP server on 127.0.0.1 (port 0) speaking the Messages API wire format. It
 * records requests; by default it answers text, or a `tool_use` block with a schema-valid input when a tool is forced.
 */
import { mockValueForSchema } from '../../shared/inference/index.js';
import {
  type FakeProviderReply,
  type RecordedProviderRequest,
  startFakeProviderServer,
} from './fake-provider-server.js';

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
export type RecordedMessagesRequest = RecordedProviderRequest<MessagesRequestBody>;

/** What the fake answers. */
export type FakeAnthropicReply = FakeProviderReply;

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
    body: {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model: 'claude-fake',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 9 },
    },
  };
}

function defaultReply(request: RecordedMessagesRequest): FakeAnthropicReply {
  const tool = request.body.tools?.[0];
  if (tool)
    return messageReply(
      [{ type: 'tool_use', id: 'toolu_fake', name: tool.name, input: mockValueForSchema(tool.input_schema, 'fake') }],
      'tool_use',
    );
  return messageReply([{ type: 'text', text: 'Hello from the fake Anthropic provider.' }]);
}

/** Start the fake on 127.0.0.1, port 0. */
export async function startFakeAnthropicServer(): Promise<FakeAnthropicServer> {
  const fake = await startFakeProviderServer<MessagesRequestBody>({
    authorised: (headers) => Boolean(headers['x-api-key']) || /^Bearer \S+/.test(headers.authorization ?? ''),
    unauthorised: {
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    },
    defaultReply,
  });
  return { baseUrl: fake.origin, requests: fake.requests, respondWith: fake.respondWith, close: fake.close };
}
