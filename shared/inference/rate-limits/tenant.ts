/**
 * The organization an inference call is made for (docs/inference.md#organization-shares): an opaque key and its share
 * of each provider rate limit, known to the throttle through the call's async context. The host wraps the inference
 * port it gives a run with {@link tenantInference}; every call the run makes through that port then counts against
 * the organization's share as well as against the whole limit. A call made outside any such port has no organization
 * and is not capped.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { InferencePort } from '../../runtime/ports.js';

/** The organization a run's calls are made for. */
export interface RateTenant {
  /** Its opaque key, one path-safe segment (an organization's id): part of its counters' keys. */
  key: string;
  /**
   * Its share of each rate limit, in (0, 1] (its own, an operator's override); the deployment's
   * (`INFERENCE_ORG_RATE_SHARE`) when absent. 1 sets no cap.
   */
  share?: number;
}

const currentTenant = new AsyncLocalStorage<RateTenant>();

/** The organization of the call whose code is running, if it has one. */
export function callTenant(): RateTenant | undefined {
  return currentTenant.getStore();
}

/**
 * The inference port of one organization's run: each call goes through `port` with the organization as its tenant.
 * @param port - the deployment's inference port
 * @param tenant - the run's organization
 * @returns a port of the same capabilities (images, search and quotes only when `port` has them)
 */
export function tenantInference(port: InferencePort, tenant: RateTenant): InferencePort {
  const as = <T>(call: () => Promise<T>): Promise<T> => currentTenant.run(tenant, call);
  return {
    name: port.name,
    isMock: port.isMock,
    generateText: (request) => as(() => port.generateText(request)),
    generateObject: (request) => as(() => port.generateObject(request)),
    ...(port.generateImages ? { generateImages: (request) => as(() => port.generateImages!(request)) } : {}),
    ...(port.search ? { search: (request) => as(() => port.search!(request)) } : {}),
    ...(port.quote ? { quote: (request) => port.quote!(request) } : {}),
  };
}
