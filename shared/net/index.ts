/**
 * Public surface of `shared/net`: the SSRF guard of every outbound request made on a caller's behalf — address
 * classification, the URL and resolved-address rules, and the one guarded HTTP request function
 * (`docs/outbound-requests.md`). It imports nothing above `shared/errors`.
 */
export { classifyAddress, isAddressLiteral, type AddressClass } from './address-class.js';
export { addressProblem, outboundUrlProblem, resolvedProblem, type OutboundPolicy } from './destination-policy.js';
export { callbackPolicy, callbackUrlProblem } from './callback-url.js';
export { systemResolver, type HostResolver, type ResolvedAddress } from './guarded-dispatcher.js';
export { guardedRequest, type GuardedRequest, type GuardedResponse } from './guarded-request.js';
