/**
 * The inference interface a backend implements: the runtime's inference port (`shared/runtime/ports.ts`, the single
 * definition), named here from the adapter side (docs/inference.md).
 */
import type {
  ImageRequest,
  InferencePort,
  LlmRequest,
  ObjectRequest,
  SearchRequest,
  TokenUsage,
} from '../runtime/ports.js';

export type {
  CallQuote,
  CallTenant,
  GeneratedImage,
  ImageRequest,
  LlmRequest,
  ObjectRequest,
  QuotedCall,
  QuoteRequest,
  SearchAnswer,
  SearchRequest,
  TokenUsage,
} from '../runtime/ports.js';

/** A text answer. */
export interface TextGeneration {
  text: string;
  usage: TokenUsage;
}

/** A structured answer. */
export interface ObjectGeneration {
  object: unknown;
  usage: TokenUsage;
}

/** A JSON schema (draft 2020-12) of an object, possibly with `$defs` / `$ref`. */
export type JsonSchemaObject = ObjectRequest['jsonSchema'];

/**
 * One call as the rate limits hand it to a provider backend (docs/inference.md#rate-limits): headers that each HTTP
 * attempt of the call must carry, so the throttle's `fetch` under the SDK knows which call an attempt belongs to.
 */
export interface BackendCall {
  readonly headers: Readonly<Record<string, string>>;
}

/** An inference backend: the runtime's inference port, each call optionally tagged by the rate limits. */
export interface InferenceBackend extends InferencePort {
  generateText(request: LlmRequest, call?: BackendCall): ReturnType<InferencePort['generateText']>;
  generateObject(request: ObjectRequest, call?: BackendCall): ReturnType<InferencePort['generateObject']>;
  generateImages?(request: ImageRequest, call?: BackendCall): ReturnType<NonNullable<InferencePort['generateImages']>>;
  search?(request: SearchRequest, call?: BackendCall): ReturnType<NonNullable<InferencePort['search']>>;
}

/** Default number of re-asks after an invalid structured answer (docs/runtime.md#structured-output). */
export const DEFAULT_STRUCTURED_RETRIES = 3;
