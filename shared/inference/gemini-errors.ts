/**
 * Classification of Gemini API failures (docs/errors.md#inference-error-categories). The `@google/genai` SDK throws
 * `ApiError` with the HTTP
 * status and, as its message, the JSON error body (`{error: {code, message, status, details}}`); a rate limit carries
 * its wait as a `google.rpc.RetryInfo` detail (`retryDelay: "30s"`) rather than a `Retry-After` header.
 */
import type { ApiError } from '@google/genai';
import { LLMCompletionError } from '../errors/index.js';
import { toInferenceError } from './provider-errors.js';

/** The Google RPC error body, as far as it is read here. */
interface GoogleErrorBody {
  error?: { message?: string; status?: string; details?: { '@type'?: string; retryDelay?: string }[] };
}

/**
 * Whether the SDK threw its `ApiError` (an HTTP failure). Told by shape, not by class, so that classifying an error
 * never loads the SDK (it is loaded on the first call).
 */
function isApiError(error: unknown): error is ApiError {
  return (
    error instanceof Error && error.name === 'ApiError' && typeof (error as { status?: unknown }).status === 'number'
  );
}

function errorBody(message: string): GoogleErrorBody {
  try {
    const parsed: unknown = JSON.parse(message);
    return parsed !== null && typeof parsed === 'object' ? (parsed as GoogleErrorBody) : {};
  } catch {
    return {};
  }
}

/**
 * The wait a `google.rpc.RetryInfo` detail asks for.
 * @param body - the error body
 * @returns seconds, or undefined without a usable `retryDelay` (a protobuf duration such as `"30s"` or `"1.5s"`)
 */
function retryDelaySeconds(body: GoogleErrorBody): number | undefined {
  const delay = body.error?.details?.find((detail) => detail['@type']?.endsWith('google.rpc.RetryInfo'))?.retryDelay;
  const match = delay === undefined ? null : /^(\d+(?:\.\d+)?)s$/.exec(delay);
  return match ? Number(match[1]) : undefined;
}

/**
 * Turn what the Gemini SDK threw into an inference error through the shared mapping, with what the error body says
 * (message, RPC status, `RetryInfo` wait).
 * @param error - the thrown value
 * @param model - the model called
 * @param pipeCode - the pipe that called it
 * @returns the error to throw (an LLMCompletionError with `provider_metadata` for an HTTP failure)
 */
export function toGeminiError(error: unknown, model: string, pipeCode: string): unknown {
  if (!isApiError(error)) return toInferenceError(error, model, pipeCode, 'google');
  const body = errorBody(error.message);
  const retryAfterSeconds = retryDelaySeconds(body);
  return toInferenceError(error, model, pipeCode, 'google', LLMCompletionError, {
    ...(body.error?.message ? { detail: body.error.message } : {}),
    ...(body.error?.status ? { providerErrorCode: body.error.status } : {}),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
}
