/**
 * The inference interface: what a backend must do for the runtime (RUNTIME.md §5). The runtime's `InferencePort`
 * has the same shape, so every backend here satisfies it.
 */

/** Token counts of one call. */
export interface TokenUsage {
  model: string;
  input_tokens: number;
  output_tokens: number;
}

/** One LLM call with its prompts already rendered. */
export interface LlmRequest {
  /** The pipe making the call, for logs and errors. */
  pipeCode: string;
  /** The pipe's `model` reference as written; informational until the model deck routes it. */
  modelRef?: string;
  systemPrompt?: string;
  userPrompt: string;
  /** Sampling temperature, 0–1. */
  temperature?: number;
  /** Output token cap. */
  maxTokens?: number;
  signal?: AbortSignal;
}

/** A text answer. */
export interface TextGeneration {
  text: string;
  usage: TokenUsage;
}

/** A JSON schema (draft 2020-12) of an object, possibly with `$defs` / `$ref`. */
export type JsonSchemaObject = Record<string, unknown>;

/** A call that must answer a JSON value valid against a schema. */
export interface ObjectRequest extends LlmRequest {
  /** Name of the schema (the concept code), sent to the provider. */
  schemaName: string;
  jsonSchema: JsonSchemaObject;
  /** Problems with a candidate answer, as sentences; empty when valid. */
  validate(value: unknown): string[];
  /** Re-asks after an invalid answer. Default 3. */
  maxRetries?: number;
}

/** A structured answer. */
export interface ObjectGeneration {
  object: unknown;
  usage: TokenUsage;
}

/** An inference backend. */
export interface InferenceBackend {
  /** `mock` or `openai`. */
  readonly name: string;
  /** True when answers are placeholders, not model output. */
  readonly isMock: boolean;
  /**
   * Generate text.
   * @throws LLMCompletionError and subclasses, classified by category (RUNTIME.md §6.2)
   */
  generateText(request: LlmRequest): Promise<TextGeneration>;
  /**
   * Generate a JSON value valid against `request.jsonSchema` (checked by `request.validate`).
   * @throws LLMStructuredOutputError when the answer never validates; LLMCompletionError and subclasses
   */
  generateObject(request: ObjectRequest): Promise<ObjectGeneration>;
}

/** Default number of re-asks after an invalid structured answer (RUNTIME.md §2.1.6). */
export const DEFAULT_STRUCTURED_RETRIES = 3;
