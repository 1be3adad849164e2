/**
 * A fake OpenAI-compatible provider: a real HTTP server on 127.0.0.1 (port 0) speaking the Chat Completions wire
 * format, so the backend's client code runs for real. It records every request and answers through a replaceable
 * handler; the default one returns text, or a schema-valid JSON object when `response_format.json_schema` is set, and
 * base64 images on `/images/generations`.
 */
import { mockValueForSchema } from '../../shared/inference/index.js';
import {
  type FakeProviderReply,
  type RecordedProviderRequest,
  startFakeProviderServer,
} from './fake-provider-server.js';

/** A request the fake received. */
export type RecordedRequest = RecordedProviderRequest<ChatRequestBody>;

/** The parts of a chat completion request the tests read. */
export interface ChatRequestBody {
  model?: string;
  messages?: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown> } };
  [key: string]: unknown;
}

/** What the fake answers. */
export type FakeReply = FakeProviderReply;

/** A running fake provider. */
export interface FakeOpenAiServer {
  /** Base URL to give the SDK, ending in `/v1`. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  respondWith(handler: (request: RecordedRequest) => FakeReply): void;
  /** Answer the next requests with these replies, one each (e.g. `providerError(429, …, { 'retry-after': '2' })`). */
  replyNext(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

/**
 * A successful chat completion body.
 * @param content - the assistant message
 * @param finishReason - `stop`, `length`, `content_filter`
 */
export function completion(content: string, finishReason = 'stop'): FakeReply {
  return {
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_760_000_000,
      model: 'fake-model',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null },
          finish_reason: finishReason,
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    },
  };
}

/**
 * An error body in OpenAI's shape.
 * @param status - HTTP status
 * @param message - error message
 * @param headers - extra headers (e.g. `retry-after`)
 */
export function providerError(status: number, message: string, headers: Record<string, string> = {}): FakeReply {
  return { status, headers, body: { error: { message, type: 'fake_error', code: null, param: null } } };
}

function defaultReply(request: RecordedRequest): FakeReply {
  if (request.path.endsWith('/images/generations')) {
    const count = typeof request.body['n'] === 'number' ? request.body['n'] : 1;
    return {
      body: {
        created: 1_760_000_000,
        data: Array.from({ length: count }, (_, index) => ({
          b64_json: Buffer.from(`fake image ${index + 1}`).toString('base64'),
        })),
        usage: { input_tokens: 12, output_tokens: 100, total_tokens: 112 },
      },
    };
  }
  const schema = request.body.response_format?.json_schema?.schema;
  return completion(schema ? JSON.stringify(mockValueForSchema(schema, 'fake')) : 'Hello from the fake provider.');
}

/** Start the fake on 127.0.0.1, port 0. */
export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const fake = await startFakeProviderServer<ChatRequestBody>({
    authorised: (headers) => /^Bearer \S+/.test(headers.authorization ?? ''),
    unauthorised: providerError(401, 'Incorrect API key provided.'),
    defaultReply,
  });
  return {
    baseUrl: `${fake.origin}/v1`,
    requests: fake.requests,
    respondWith: fake.respondWith,
    replyNext: fake.replyNext,
    close: fake.close,
  };
}
