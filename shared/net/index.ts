/**
 * Public surface of `shared/net`: the SSRF guard of every outbound request made on a caller's behalf — address
 * classification, the URL and resolved-address rules, and the one guarded HTTP request function
 * (`docs/outbound-requests.md`). It imports nothing above `shared/errors`.
 */
export { type AddressClass, classifyAddress, isAddressLiteral } from './address-class.js';
export { callbackPolicy, callbackUrlProblem } from './callback-url.js';
export { addressProblem, type OutboundPolicy, outboundUrlProblem, resolvedProblem } from './destination-policy.js';
export { type HostResolver, type ResolvedAddress, systemResolver } from './guarded-dispatcher.js';
export { type GuardedRequest, type GuardedResponse, guardedRequest } from './guarded-request.js';
export { providerFetch } from './provider-fetch.js';
