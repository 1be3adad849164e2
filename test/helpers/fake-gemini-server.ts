/**
 * A fake Google Gemini provider: a real HTTP server on 127.0.0.1 (port 0) speaking the `generateContent` wire format
 * (`POST /v1beta/models/{model}:generateContent`, key in `x-goog-api-key`). By default it answers text, or a
 * schema-valid JSON object when `generationConfig.responseJsonSchema` is set.
 */
import { mockValueForSchema } from '../../shared/inference/index.js';
import {
  type FakeProviderReply,
  type FakeProviderServer,
  type RecordedProviderRequest,
  startFakeProviderServer,
} from './fake-provider-server.js';

/** The parts of a generateContent request the tests read. */
export interface GenerateContentBody {
  contents?: { role: string; parts: Record<string, unknown>[] }[];
  systemInstruction?: { parts: { text: string }[] };
  generationConfig?: {
    temperature?: number;
    maxOutputTokens?: number;
    responseMimeType?: string;
    responseJsonSchema?: Record<string, unknown>;
  };
}

/** A request the fake received. */
export type RecordedGeminiRequest = RecordedProviderRequest<GenerateContentBody>;

/**
 * A generateContent answer with one candidate.
 * @param text - the candidate's text
 * @param finishReason - `STOP`, `MAX_TOKENS`, `SAFETY`, …
 */
export function candidateReply(text: string, finishReason = 'STOP'): FakeProviderReply {
  return {
    body: {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason, index: 0 }],
      usageMetadata: { promptTokenCount: 15, candidatesTokenCount: 6, totalTokenCount: 21 },
      modelVersion: 'gemini-fake-001',
    },
  };
}

/**
 * An error body in Google's RPC shape.
 * @param status - HTTP status
 * @param rpcStatus - e.g. `RESOURCE_EXHAUSTED`
 * @param details - RPC details (e.g. a `google.rpc.RetryInfo`)
 */
export function googleError(
  status: number,
  rpcStatus: string,
  details: Record<string, unknown>[] = [],
): FakeProviderReply {
  return {
    status,
    body: { error: { code: status, message: `fake ${rpcStatus.toLowerCase()}`, status: rpcStatus, details } },
  };
}

function defaultReply(request: RecordedGeminiRequest): FakeProviderReply {
  const schema = request.body.generationConfig?.responseJsonSchema;
  return candidateReply(
    schema ? JSON.stringify(mockValueForSchema(schema, 'fake')) : 'Hello from the fake Gemini provider.',
  );
}

/** Start the fake on 127.0.0.1, port 0; give its `origin` to the backend as its API root. */
export function startFakeGeminiServer(): Promise<FakeProviderServer<GenerateContentBody>> {
  return startFakeProviderServer<GenerateContentBody>({
    authorised: (headers) => Boolean(headers['x-goog-api-key']),
    unauthorised: googleError(401, 'UNAUTHENTICATED'),
    defaultReply,
  });
}
