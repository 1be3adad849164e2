/**
 * The inference interface a backend implements: the runtime's inference port (`shared/runtime/ports.ts`, the single
 * definition), named here from the adapter side (docs/inference.md).
 */
import type { InferencePort, ObjectRequest, TokenUsage } from '../runtime/ports.js';

export type {
  CallQuote,
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

/** An inference backend: the runtime's inference port. */
export type InferenceBackend = InferencePort;

/** Default number of re-asks after an invalid structured answer (docs/runtime.md#structured-output). */
export const DEFAULT_STRUCTURED_RETRIES = 3;
