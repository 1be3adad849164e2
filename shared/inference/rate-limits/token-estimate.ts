/**
 * The token estimate a call is charged before it is made (docs/inference.md#rate-limits): its prompt text at four
 * characters a token, plus its output allowance (`max_tokens`, else {@link DEFAULT_OUTPUT_TOKENS}). Attachments are not
 * counted. After the call the estimate is replaced by the usage the provider reported.
 */
import type { ImageRequest, LlmRequest, SearchRequest } from '../types.js';

/** Output tokens assumed for a call that sets no `max_tokens`. */
const DEFAULT_OUTPUT_TOKENS = 1024;

/** Characters per token of the estimate. */
const CHARACTERS_PER_TOKEN = 4;

function promptTokens(...texts: (string | undefined)[]): number {
  return Math.ceil(texts.reduce((total, text) => total + (text?.length ?? 0), 0) / CHARACTERS_PER_TOKEN);
}

/**
 * Estimate an LLM call.
 * @param request - the call
 * @param modelMaxTokens - the model spec's `max_tokens`, used when the call sets none
 * @returns input plus output tokens
 */
export function estimateLlmTokens(request: LlmRequest, modelMaxTokens: number | undefined): number {
  return (
    promptTokens(request.systemPrompt, request.userPrompt) +
    (request.maxTokens ?? modelMaxTokens ?? DEFAULT_OUTPUT_TOKENS)
  );
}

/**
 * Estimate an image or search call: its prompt or query only.
 * @param request - the call
 */
export function estimatePromptTokens(request: ImageRequest | SearchRequest): number {
  return promptTokens('prompt' in request ? request.prompt : request.query);
}
