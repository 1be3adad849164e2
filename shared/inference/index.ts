/**
 * Public surface of `shared/inference`: the backends behind the runtime's inference port.
 */
export type { GeneratedImage, ImageRequest, InferenceBackend, JsonSchemaObject, LlmRequest, ObjectGeneration, ObjectRequest, SearchAnswer, SearchRequest, TextGeneration, TokenUsage } from './types.js';
export { createMockBackend, type MockBackendOptions } from './mock-backend.js';
export { createOpenAiBackend, type OpenAiBackendOptions } from './openai-backend.js';
export { selectInferenceBackend, type InferenceSelection } from './select-backend.js';
export { type RoutedBackend, type RoutedBackendOptions } from './routed-backend.js';
export { createAnthropicBackend, type AnthropicBackendOptions } from './anthropic-backend.js';
export { createGeminiBackend, type GeminiBackendOptions } from './gemini-backend.js';
export { loadInferenceConfig, MODEL_CATEGORIES, type InferenceConfig, type ModelCategory } from './config/inference-config.js';
export { ModelDeck, type ModelChoice, type ModelDeckListing } from './config/model-deck.js';
export { ModelRouter, type Route } from './config/model-router.js';
export { mockValueForSchema } from './mock-value.js';
export { meteredBackend } from './metered-backend.js';
export { createDocumentExtractor, type DocumentExtractor, type ExtractedPage, type ExtractRequest } from './extraction/document-extractor.js';
export type { FetchLimits } from './extraction/fetch-document.js';

