/**
 * Classification of provider failures into inference errors (docs/errors.md#inference-error-categories): the HTTP
 * status decides the category
 * (429 and ≥500 transient, 402 capacity, 401/403/404 configuration, 400 content), network failures are transient, and
 * `provider_metadata` keeps what the provider said, including its `Retry-After` hint.
 */
import {
  type InferenceErrorCategory,
  type InferenceErrorOptions,
  LLMCompletionError,
  type MthdsError,
  type ProviderMetadata,
} from '../errors/index.js';

/** The error class a failed call is reported as (LLM completions by default). */
export type InferenceErrorClass = new (message: string, options: InferenceErrorOptions) => MthdsError;

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

/** The parts of an SDK error (OpenAI and Anthropic SDKs share this shape) the mapping reads. */
interface SdkError extends Error {
  status?: number;
  headers?: Headers;
  requestID?: string | null;
  code?: string | null;
}

/** What a provider said in its error body, for SDKs whose errors carry only the status (the Gemini SDK). */
export interface ProviderErrorHints {
  /** The provider's own message (else the SDK error's). */
  detail?: string;
  /** The provider's error code (e.g. `RESOURCE_EXHAUSTED`). */
  providerErrorCode?: string;
  /** The wait the provider asked for, in seconds (else read from `Retry-After` headers). */
  retryAfterSeconds?: number;
}

/** Whether an error is a failure to reach the provider: an SDK connection error, or undici's `fetch failed`. */
function isNetworkFailure(error: Error, sdkError: SdkError): boolean {
  if (typeof sdkError.status === 'number') return false;
  return (
    error.constructor.name.includes('Connection') || (error instanceof TypeError && error.message === 'fetch failed')
  );
}

/**
 * Turn what a provider SDK (OpenAI, Anthropic, Gemini) threw into an inference error. Aborts are rethrown as they are.
 * @param error - the thrown value
 * @param model - the model called
 * @param pipeCode - the pipe that called it
 * @param provider - `openai`, `anthropic`, `google`, …
 * @param ErrorClass - the class to report (LLMCompletionError, ImgGenGenerationError, SearchJobFailureError)
 * @param hints - what the provider's error body said, when the SDK error does not carry it
 * @returns the error to throw
 */
export function toInferenceError(
  error: unknown,
  model: string,
  pipeCode: string,
  provider = 'openai',
  ErrorClass: InferenceErrorClass = LLMCompletionError,
  hints: ProviderErrorHints = {},
): unknown {
  if (!(error instanceof Error)) return error;
  const sdkError = error as SdkError;
  const type = error.constructor.name;
  if (error.name === 'AbortError' || type.includes('UserAbort')) return error;
  if (isNetworkFailure(error, sdkError)) {
    const reason = error.cause instanceof Error ? error.cause.message : error.message;
    return new ErrorClass(`Pipe '${pipeCode}': could not reach the provider: ${reason}`, {
      category: 'TRANSIENT',
      cause: error,
      model,
      provider,
      providerMetadata: { provider, sdk_exception_type: type, message: error.message },
    });
  }
  if (typeof sdkError.status === 'number') {
    const status = sdkError.status;
    const detail = hints.detail ?? error.message;
    const metadata: ProviderMetadata = {
      provider,
      sdk_exception_type: type,
      message: detail,
      status_code: status,
    };
    if (sdkError.requestID) metadata.request_id = sdkError.requestID;
    const code = hints.providerErrorCode ?? sdkError.code;
    if (code) metadata.provider_error_code = code;
    const retryAfter = hints.retryAfterSeconds ?? retryAfterSeconds(sdkError.headers, Date.now());
    if (retryAfter !== undefined) metadata.retry_after_seconds = retryAfter;
    return new ErrorClass(`Pipe '${pipeCode}': the provider answered ${status}: ${detail}`, {
      category: status === 529 ? 'TRANSIENT' : categoryOfStatus(status),
      cause: error,
      model,
      provider,
      providerMetadata: metadata,
    });
  }
  return error;
}
