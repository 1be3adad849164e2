/**
 * Public surface of `shared/net`: SSRF-guarded outbound HTTP.
 */
export { isBlockedAddress, outboundDispatcher } from './guarded-fetch.js';
