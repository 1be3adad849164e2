/**
 * A backend decorator that makes each call of one route pass its gate (docs/inference.md#rate-limits): wait in
 * order for the route's limits (and its organization's share of them, docs/inference.md#organization-shares), make the
 * call (its HTTP attempts tagged with its admission, so the throttle's `fetch` marks it sent when its request leaves),
 * then free its slot and correct its token estimate with the real usage.
 * A call that fails with a provider 429 carrying `Retry-After` pauses the backend for every process (for SDKs whose
 * HTTP attempts the throttle does not see; the others pause at the first 429, before the SDK's own retry).
 */
import { MthdsError } from '../../errors/index.js';
import type { BackendCall, InferenceBackend, TokenUsage } from '../types.js';
import type { BackendPauses } from './backend-pauses.js';
import { type CallGate, withAdmission } from './call-gate.js';
import type { RateTenant } from './tenant.js';
import { estimateLlmTokens, estimatePromptTokens } from './token-estimate.js';

/**
 * Wrap a route's client.
 * @param backend - the route's SDK client
 * @param gate - the route's gate
 * @param pauses - the deployment's backend pauses
 * @param modelMaxTokens - the model spec's `max_tokens` (the output estimate of a call that sets none)
 */
export function throttledBackend(
  backend: InferenceBackend,
  gate: CallGate,
  pauses: BackendPauses,
  modelMaxTokens: number | undefined,
): InferenceBackend {
  const through = async <T extends { usage: TokenUsage }>(
    estimate: number,
    tenant: RateTenant | undefined,
    call: (tagged: BackendCall) => Promise<T>,
  ): Promise<T> => {
    const admission = await gate.enter(estimate, tenant);
    let result: T;
    try {
      result = await withAdmission(admission, call);
    } catch (error) {
      await admission.settle(undefined);
      const metadata = error instanceof MthdsError ? error.provider_metadata : undefined;
      if (metadata?.status_code === 429 && typeof metadata.retry_after_seconds === 'number')
        await pauses.pause(gate.backend, metadata.retry_after_seconds);
      throw error;
    }
    await admission.settle(result.usage.input_tokens + result.usage.output_tokens);
    return result;
  };
  return {
    name: backend.name,
    isMock: backend.isMock,
    generateText: (request) =>
      through(estimateLlmTokens(request, modelMaxTokens), request.tenant, (tagged) =>
        backend.generateText(request, tagged),
      ),
    generateObject: (request) =>
      through(estimateLlmTokens(request, modelMaxTokens), request.tenant, (tagged) =>
        backend.generateObject(request, tagged),
      ),
    ...(backend.generateImages
      ? {
          generateImages: (request) =>
            through(estimatePromptTokens(request), request.tenant, (tagged) =>
              backend.generateImages!(request, tagged),
            ),
        }
      : {}),
    ...(backend.search
      ? {
          search: (request) =>
            through(estimatePromptTokens(request), request.tenant, (tagged) => backend.search!(request, tagged)),
        }
      : {}),
  };
}
