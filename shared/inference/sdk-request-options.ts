/**
 * The per-request options of the OpenAI and Anthropic SDKs for one call: its abort signal, and the headers the rate
 * limits tag its HTTP attempts with (docs/inference.md#rate-limits).
 */
import type { BackendCall } from './types.js';

/**
 * Build them.
 * @param request - the call's request (its `signal`)
 * @param call - the rate limits' tagging of the call, when it went through them
 * @returns `{ signal?, headers? }`, each only when set
 */
export function sdkRequestOptions(
  request: { signal?: AbortSignal | undefined },
  call: BackendCall | undefined,
): { signal?: AbortSignal; headers?: Record<string, string> } {
  return {
    ...(request.signal ? { signal: request.signal } : {}),
    ...(call ? { headers: { ...call.headers } } : {}),
  };
}
