/**
 * Public surface of `shared/inference`: the backends behind the runtime's inference port.
 */

export { type AnthropicBackendOptions, createAnthropicBackend } from './anthropic-backend.js';
export {
  type InferenceConfig,
  loadInferenceConfig,
  MODEL_CATEGORIES,
  type ModelCategory,
} from './config/inference-config.js';
export { type ModelChoice, ModelDeck, type ModelDeckListing } from './config/model-deck.js';
export { ModelRouter, type Route } from './config/model-router.js';
export {
  createDocumentExtractor,
  type DocumentExtractor,
  type ExtractedPage,
  type ExtractRequest,
} from './extraction/document-extractor.js';
export type { FetchLimits } from './extraction/fetch-document.js';
export { createGeminiBackend, type GeminiBackendOptions } from './gemini-backend.js';
export { type GenAiTelemetryOptions, genAiTelemetry } from './genai-telemetry.js';
export { meteredBackend } from './metered-backend.js';
export { createMockBackend, type MockBackendOptions } from './mock-backend.js';
export { MOCK_MAX_OUTPUT_TOKENS, mockValueForSchema, mockValuesForSchema } from './mock-value.js';
export { createOpenAiBackend, type OpenAiBackendOptions } from './openai-backend.js';
export type { LimiterStore } from './rate-limits/limiter-store.js';
export { type RateTenant, tenantInference } from './rate-limits/tenant.js';
export { throttleMetrics } from './rate-limits/throttle-metrics.js';
export type { RateLimitOptions, RoutedBackend, RoutedBackendOptions } from './routed-backend.js';
export { type InferenceSelection, selectInferenceBackend } from './select-backend.js';
export type {
  GeneratedImage,
  ImageRequest,
  InferenceBackend,
  JsonSchemaObject,
  LlmRequest,
  ObjectGeneration,
  ObjectRequest,
  SearchAnswer,
  SearchRequest,
  TextGeneration,
  TokenUsage,
} from './types.js';
