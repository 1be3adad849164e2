/**
 * Classification of Gemini API failures (RUNTIME.md §6.2). The `@google/genai` SDK throws `ApiError` with the HTTP
 * status and, as its message, the JSON error body (`{error: {code, message, status, details}}`); a rate limit carries
 * its wait as a `google.rpc.RetryInfo` detail (`retryDelay: "30s"`) rather than a `Retry-After` header.
 */
import { ApiError } from '@google/genai';
import { LLMCompletionError, type ProviderMetadata } from '../errors/index.js';
import { categoryOfStatus, toInferenceError } from './provider-errors.js';

/** The Google RPC error body, as far as it is read here. */
interface GoogleErrorBody {
  error?: { message?: string; status?: string; details?: { '@type'?: string; retryDelay?: string }[] };
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
 * Turn what the Gemini SDK threw into an inference error; aborts and network failures go through the shared mapping.
 * @param error - the thrown value
 * @param model - the model called
 * @param pipeCode - the pipe that called it
 * @returns the error to throw (an LLMCompletionError with `provider_metadata` for an HTTP failure)
 */
export function toGeminiError(error: unknown, model: string, pipeCode: string): unknown {
  if (error instanceof TypeError && error.message === 'fetch failed') {
    return new LLMCompletionError(`Pipe '${pipeCode}': could not reach the provider: ${String((error.cause as Error | undefined)?.message ?? error.message)}`, {
      category: 'TRANSIENT',
      cause: error,
      model,
      provider: 'google',
      providerMetadata: { provider: 'google', sdk_exception_type: 'TypeError', message: error.message },
    });
  }
  if (!(error instanceof ApiError)) return toInferenceError(error, model, pipeCode, 'google');
  const body = errorBody(error.message);
  const detail = body.error?.message ?? error.message;
  const metadata: ProviderMetadata = { provider: 'google', sdk_exception_type: 'ApiError', message: detail, status_code: error.status };
  if (body.error?.status) metadata.provider_error_code = body.error.status;
  const retryAfter = retryDelaySeconds(body);
  if (retryAfter !== undefined) metadata.retry_after_seconds = retryAfter;
  return new LLMCompletionError(`Pipe '${pipeCode}': the provider answered ${error.status}: ${detail}`, {
    category: categoryOfStatus(error.status),
    cause: error,
    model,
    provider: 'google',
    providerMetadata: metadata,
  });
}
