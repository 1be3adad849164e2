/**
 * A backend decorator that counts inference calls, tokens and their cost (USD, by serving backend and model) in the
 * process metrics; it forwards the backend's price quotes.
 */
import type { Metrics } from '../observability/index.js';
import type { InferenceBackend, TokenUsage } from './types.js';

/**
 * Wrap a backend so each call is counted.
 * @param backend - the backend to meter
 * @param metrics - the process metrics
 */
export function meteredBackend(backend: InferenceBackend, metrics: Metrics): InferenceBackend {
  const count = async <T extends { usage: TokenUsage }>(
    kind: 'text' | 'object' | 'image' | 'search',
    call: () => Promise<T>,
  ): Promise<T> => {
    try {
      const result = await call();
      metrics.inferenceCalls.inc({ backend: backend.name, kind, outcome: 'success' });
      metrics.inferenceTokens.inc({ backend: backend.name, direction: 'input' }, result.usage.input_tokens);
      metrics.inferenceTokens.inc({ backend: backend.name, direction: 'output' }, result.usage.output_tokens);
      if (typeof result.usage.cost === 'number')
        metrics.inferenceCost.inc(
          { backend: result.usage.backend ?? backend.name, model: result.usage.model },
          result.usage.cost,
        );
      return result;
    } catch (error) {
      metrics.inferenceCalls.inc({ backend: backend.name, kind, outcome: 'failure' });
      throw error;
    }
  };
  return {
    name: backend.name,
    isMock: backend.isMock,
    generateText: (request) => count('text', () => backend.generateText(request)),
    generateObject: (request) => count('object', () => backend.generateObject(request)),
    ...(backend.generateImages
      ? { generateImages: (request) => count('image', () => backend.generateImages!(request)) }
      : {}),
    ...(backend.search ? { search: (request) => count('search', () => backend.search!(request)) } : {}),
    ...(backend.quote ? { quote: (request) => backend.quote!(request) } : {}),
  };
}
