/**
 * The mock backend: deterministic and offline, for a server with no provider key, for dry runs and for tests.
 * Text answers say they are mock output and quote the start of the prompt; objects are schema-valid placeholders;
 * images are labelled SVG placeholders (data URLs); searches answer with two example.com sources.
 * Token usage is estimated as one token per 4 characters.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { LLMStructuredOutputError } from '../errors/index.js';
import { mockValueForSchema } from './mock-value.js';
import type { ImageRequest, InferenceBackend, LlmRequest, ObjectRequest, SearchRequest, TokenUsage } from './types.js';

/** Options of the mock backend. */
export interface MockBackendOptions {
  /** Artificial latency per call in ms, to hold runs in flight (default 0). Aborted by the request's signal. */
  latencyMs?: number;
}

const MOCK_MODEL = 'mock';
const QUOTED_PROMPT_CHARS = 200;

/**
 * A small deterministic SVG placeholder, as a data URL, labelled with the start of the prompt.
 * @param label - text shown in the image
 */
function mockImageUrl(label: string): string {
  const text = label.replace(/[<>&"']/g, ' ').slice(0, 60);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="288"><rect width="100%" height="100%" fill="#ddd"/><text x="16" y="144" font-size="14">mock image: ${text}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

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
      const attached = [
        request.images?.length ? `${request.images.length} image(s)` : '',
        request.documents?.length ? `${request.documents.length} document(s)` : '',
      ].filter(Boolean);
      const text = `[mock inference] Response to: "${quoted}"${attached.length > 0 ? ` (with ${attached.join(' and ')})` : ''}`;
      return { text, usage: usageOf(request, text) };
    },
    async generateImages(request: ImageRequest) {
      await wait(request.signal);
      const images = Array.from({ length: request.count }, (_, index) => ({
        url: mockImageUrl(`${request.prompt} #${index + 1}`),
        mime_type: 'image/svg+xml',
        source_prompt: request.prompt,
        source_negative_prompt: request.negativePrompt ?? null,
      }));
      return {
        images,
        usage: { model: MOCK_MODEL, input_tokens: Math.ceil(request.prompt.length / 4), output_tokens: 0 },
      };
    },
    async search(request: SearchRequest) {
      await wait(request.signal);
      const query = request.query.trim().replace(/\s+/g, ' ').slice(0, QUOTED_PROMPT_CHARS);
      const result = {
        answer: `[mock search] Answer to: "${query}"`,
        sources: [1, 2].map((index) => ({
          url: `https://example.com/mock-source-${index}`,
          title: `Mock source ${index}`,
          snippet: `Placeholder snippet ${index} for "${query.slice(0, 60)}"`,
        })),
      };
      const structured =
        request.jsonSchema === undefined
          ? {}
          : { object: mockValueForSchema(request.jsonSchema, `${request.pipeCode}\u0000${query}`) };
      return {
        result,
        ...structured,
        usage: {
          model: MOCK_MODEL,
          input_tokens: Math.ceil(query.length / 4),
          output_tokens: Math.ceil(result.answer.length / 4),
        },
      };
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
