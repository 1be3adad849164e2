/**
 * Classification of provider failures into inference errors (RUNTIME.md §6.2): the HTTP status decides the category
 * (429 and ≥500 transient, 402 capacity, 401/403/404 configuration, 400 content), network failures are transient, and
 * `provider_metadata` keeps what the provider said, including its `Retry-After` hint.
 */
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { LLMCompletionError, type InferenceErrorCategory, type ProviderMetadata } from '../errors/index.js';

/**
 * The category of an HTTP status.
 * @param status - the provider's HTTP status
 */
export function categoryOfStatus(status: number): InferenceErrorCategory {
  if (status === 429 || status >= 500) return 'TRANSIENT';
  if (status === 402) return 'CAPACITY';
  if (status === 400 || status === 422) return 'CONTENT';
  return 'CONFIGURATION';
}

/**
 * Seconds to wait from `retry-after-ms`, `retry-after` (seconds or an HTTP date).
 * @param headers - the provider response headers
 * @param now - current time in epoch ms (for HTTP dates)
 * @returns seconds, or undefined when the provider gave no usable hint
 */
export function retryAfterSeconds(headers: Headers | undefined, now: number): number | undefined {
  const milliseconds = Number(headers?.get('retry-after-ms'));
  if (headers?.get('retry-after-ms') && Number.isFinite(milliseconds)) return milliseconds / 1000;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/**
 * Turn what the OpenAI SDK threw into an inference error. Aborts are rethrown as they are.
 * @param error - the thrown value
 * @param model - the model called
 * @param pipeCode - the pipe that called it
 * @returns the error to throw
 */
export function toInferenceError(error: unknown, model: string, pipeCode: string): unknown {
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) return error;
  if (error instanceof APIConnectionError) {
    return new LLMCompletionError(`Pipe '${pipeCode}': could not reach the provider: ${error.message}`, {
      category: 'TRANSIENT',
      cause: error,
      model,
      provider: 'openai',
      providerMetadata: { provider: 'openai', sdk_exception_type: error.constructor.name, message: error.message },
    });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const metadata: ProviderMetadata = {
      provider: 'openai',
      sdk_exception_type: error.constructor.name,
      message: error.message,
      status_code: error.status,
    };
    if (error.requestID) metadata.request_id = error.requestID;
    if (error.code) metadata.provider_error_code = error.code;
    const retryAfter = retryAfterSeconds(error.headers, Date.now());
    if (retryAfter !== undefined) metadata.retry_after_seconds = retryAfter;
    return new LLMCompletionError(`Pipe '${pipeCode}': the provider answered ${error.status}: ${error.message}`, {
      category: categoryOfStatus(error.status),
      cause: error,
      model,
      provider: 'openai',
      providerMetadata: metadata,
    });
  }
  return error;
}
