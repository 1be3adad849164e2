/**
 * Choosing the inference backend from settings: `mock` always mocks; `auto` uses the OpenAI-compatible backend when
 * a key is configured, else the mock (README.md "Configuration").
 */
import { createMockBackend } from './mock-backend.js';
import { createOpenAiBackend } from './openai-backend.js';
import type { InferenceBackend } from './types.js';

/** The inference part of the settings. */
export interface InferenceSelection {
  profile: 'auto' | 'mock';
  openaiApiKey?: string | undefined;
  openaiBaseUrl?: string | undefined;
  openaiModel: string;
  openaiTimeoutMs?: number;
  openaiMaxRetries?: number;
  /** Artificial latency of the mock, in ms. */
  mockLatencyMs?: number;
}

/**
 * Build the backend the settings select.
 * @param selection - profile, provider key and options
 */
export function selectInferenceBackend(selection: InferenceSelection): InferenceBackend {
  if (selection.profile === 'auto' && selection.openaiApiKey) {
    return createOpenAiBackend({
      apiKey: selection.openaiApiKey,
      model: selection.openaiModel,
      ...(selection.openaiBaseUrl ? { baseUrl: selection.openaiBaseUrl } : {}),
      ...(selection.openaiTimeoutMs === undefined ? {} : { timeoutMs: selection.openaiTimeoutMs }),
      ...(selection.openaiMaxRetries === undefined ? {} : { maxRetries: selection.openaiMaxRetries }),
    });
  }
  return createMockBackend(selection.mockLatencyMs === undefined ? {} : { latencyMs: selection.mockLatencyMs });
}
