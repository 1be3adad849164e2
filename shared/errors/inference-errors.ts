/**
 * Inference failures, classified by category (docs/errors.md#inference-error-categories).
 */

import type { ErrorDomain } from './catalog.js';
import { MthdsError, type MthdsErrorOptions } from './mthds-error.js';

/** Category of an inference failure and what follows from it. */
export type InferenceErrorCategory = 'TRANSIENT' | 'CAPACITY' | 'CONFIGURATION' | 'CONTENT' | 'AMBIGUOUS' | 'UNKNOWN';

const CATEGORY_RULES: Record<
  InferenceErrorCategory,
  { domain: ErrorDomain | null; retryable: boolean; action: MthdsErrorOptions['userAction'] }
> = {
  TRANSIENT: {
    domain: 'runtime',
    retryable: true,
    action: { kind: 'wait_and_retry', detail: 'The provider is temporarily unavailable or rate-limited; retry later.' },
  },
  CAPACITY: {
    domain: 'runtime',
    retryable: false,
    action: { kind: 'check_billing', detail: 'The provider account is out of quota or credits.' },
  },
  CONFIGURATION: {
    domain: 'config',
    retryable: false,
    action: { kind: 'check_credentials', detail: 'Check the provider credentials, endpoint and model name.' },
  },
  CONTENT: {
    domain: 'input',
    retryable: false,
    action: {
      kind: 'change_input',
      detail: 'The provider rejected or could not complete this input; change the input or the prompt.',
    },
  },
  AMBIGUOUS: {
    domain: 'runtime',
    retryable: false,
    action: { kind: 'contact_support', detail: 'The provider failure could not be classified.' },
  },
  UNKNOWN: { domain: null, retryable: false, action: { kind: 'unknown', detail: 'Unknown provider failure.' } },
};

/**
 * Options for an inference error: the category decides domain, retryable and user action unless given explicitly.
 */
export interface InferenceErrorOptions extends MthdsErrorOptions {
  category: InferenceErrorCategory;
}

function categoryOptions(options: InferenceErrorOptions): MthdsErrorOptions {
  const rule = CATEGORY_RULES[options.category];
  return {
    errorDomain: rule.domain,
    retryable: rule.retryable,
    userAction: rule.action,
    errorCategory: options.category,
    ...options,
  };
}

/**
 * Base of the inference failures: the category decides domain, retryable and user action
 * (docs/errors.md#inference-error-categories). Each
 * subclass is its own `error_type`.
 */
abstract class InferenceError extends MthdsError {
  constructor(message: string, options: InferenceErrorOptions) {
    super(message, categoryOptions(options));
  }
}

/** A provider call failed (network, HTTP status, malformed answer). */
export class LLMCompletionError extends InferenceError {}
/** The completion stopped at the token limit (`finish_reason = length`). */
export class LLMCompletionTruncatedError extends InferenceError {}
/** The model refused, or a content filter stopped it. */
export class LLMCompletionRefusedError extends InferenceError {}
/** Structured output never matched the concept's schema after the re-ask retries. */
export class LLMStructuredOutputError extends InferenceError {}
/** An image generation call failed. */
export class ImgGenGenerationError extends InferenceError {}
/** A web search call failed. */
export class SearchJobFailureError extends InferenceError {}

/**
 * 503 (retryable, with `Retry-After`): a call waited `INFERENCE_RATE_LIMIT_WAIT_MS` for its provider rate limits or a
 * paused backend and was not made (docs/inference.md#rate-limits). Nothing was sent to the provider.
 */
export class InferenceRateLimitWaitError extends MthdsError {}

/** A `$preset`, `@alias` or `~waterfall` the model deck does not know, or a waterfall with no servable member (422). */
export class ModelChoiceNotFoundError extends MthdsError {}
