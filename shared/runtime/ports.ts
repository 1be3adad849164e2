/**
 * Ports the runtime is given by its host (STYLE.md rule 3): inference, clock and ids. The runtime imports no
 * adapter; `api/` and `worker/` wire real ones, tests pass their own.
 *
 * The inference port has the shape of `shared/inference`'s `InferenceBackend`, so any backend satisfies it.
 */

/** Token counts of one inference call. */
export interface TokenUsage {
  model: string;
  input_tokens: number;
  output_tokens: number;
}

/** One LLM call: system and user prompt, already rendered. */
export interface LlmRequest {
  /** The pipe making the call, for logs and errors. */
  pipeCode: string;
  /** The pipe's `model` reference as written (`$preset`, `@alias`, `~waterfall` or a handle). */
  modelRef?: string;
  systemPrompt?: string;
  userPrompt: string;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

/** An LLM call that must answer a JSON value valid against `jsonSchema`. */
export interface ObjectRequest extends LlmRequest {
  schemaName: string;
  jsonSchema: Record<string, unknown>;
  /** Problems with a candidate answer, as sentences; empty when valid. */
  validate(value: unknown): string[];
  maxRetries?: number;
}

/** The inference port (RUNTIME.md §5). */
export interface InferencePort {
  readonly name: string;
  readonly isMock: boolean;
  generateText(request: LlmRequest): Promise<{ text: string; usage: TokenUsage }>;
  generateObject(request: ObjectRequest): Promise<{ object: unknown; usage: TokenUsage }>;
}

/** Source of unique ids (stuff codes, run ids). */
export interface IdSource {
  /** A fresh opaque id. */
  next(): string;
}

/** Everything a run needs from its host. */
export interface RuntimeDeps {
  inference: InferencePort;
  /** Current time in epoch milliseconds. */
  now(): number;
  ids: IdSource;
  /** Aborts the run (client gone, shutdown, timeout). */
  signal?: AbortSignal;
}
