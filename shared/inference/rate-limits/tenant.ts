/**
 * The organization an inference call is made for (docs/inference.md#organization-shares): an opaque key and its share
 * of each provider rate limit, carried by the call's request (`tenant`) down to the throttle. The host wraps the
 * inference port it gives a run with {@link tenantInference}; every call the run makes through that port then counts
 * against the organization's share as well as against the whole limit. A call made outside any such port has no
 * organization and is not capped.
 */
import type { CallTenant, InferencePort } from '../../runtime/ports.js';

/** The organization a run's calls are made for. */
export type RateTenant = CallTenant;

/**
 * The inference port of one organization's run: each call goes through `port` with the organization as its tenant.
 * @param port - the deployment's inference port
 * @param tenant - the run's organization
 * @returns a port of the same capabilities (images, search and quotes only when `port` has them)
 */
export function tenantInference(port: InferencePort, tenant: RateTenant): InferencePort {
  return {
    name: port.name,
    isMock: port.isMock,
    generateText: (request) => port.generateText({ ...request, tenant }),
    generateObject: (request) => port.generateObject({ ...request, tenant }),
    ...(port.generateImages ? { generateImages: (request) => port.generateImages!({ ...request, tenant }) } : {}),
    ...(port.search ? { search: (request) => port.search!({ ...request, tenant }) } : {}),
    ...(port.quote ? { quote: (request) => port.quote!(request) } : {}),
  };
}
