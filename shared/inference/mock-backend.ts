/**
 * The mock backend: deterministic and offline, for a server with no provider key, for dry runs and for tests.
 * Text answers say they are mock output and quote the start of the prompt; objects are schema-valid placeholders.
 * Token usage is estimated as one token per 4 characters.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { LLMStructuredOutputError } from '../errors/index.js';
import { mockValueForSchema } from './mock-value.js';
import type { InferenceBackend, LlmRequest, ObjectRequest, TokenUsage } from './types.js';

/** Options of the mock backend. */
export interface MockBackendOptions {
  /** Artificial latency per call in ms, to hold runs in flight (default 0). Aborted by the request's signal. */
  latencyMs?: number;
}

const MOCK_MODEL = 'mock';
const QUOTED_PROMPT_CHARS = 200;

function usageOf(request: LlmRequest, answer: string): TokenUsage {
  const prompt = `${request.systemPrompt ?? ''}${request.userPrompt}`;
  return { model: MOCK_MODEL, input_tokens: Math.ceil(prompt.length / 4), output_tokens: Math.ceil(answer.length / 4) };
}

/**
 * Create the mock backend.
 * @param options - artificial latency
 */
export function createMockBackend(options: MockBackendOptions = {}): InferenceBackend {
  const latencyMs = options.latencyMs ?? 0;
  const wait = async (signal: AbortSignal | undefined) => {
    signal?.throwIfAborted();
    if (latencyMs > 0) await delay(latencyMs, undefined, signal ? { signal } : {});
  };
  return {
    name: 'mock',
    isMock: true,
    async generateText(request) {
      await wait(request.signal);
      const prompt = request.userPrompt.trim().replace(/\s+/g, ' ');
      const quoted = prompt.length > QUOTED_PROMPT_CHARS ? `${prompt.slice(0, QUOTED_PROMPT_CHARS)}…` : prompt;
      const text = `[mock inference] Response to: "${quoted}"`;
      return { text, usage: usageOf(request, text) };
    },
    async generateObject(request: ObjectRequest) {
      await wait(request.signal);
      const object = mockValueForSchema(request.jsonSchema, `${request.pipeCode}\u0000${request.userPrompt}`);
      const problems = request.validate(object);
      if (problems.length > 0) {
        throw new LLMStructuredOutputError(
          `Mock inference could not build a valid ${request.schemaName}: ${problems.join('; ')}`,
          { category: 'CONTENT', model: MOCK_MODEL, provider: 'mock' },
        );
      }
      return { object, usage: usageOf(request, JSON.stringify(object)) };
    },
  };
}
