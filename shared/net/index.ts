/**
 * Public surface of `shared/net`: SSRF-guarded outbound HTTP.
 */
export { firstBlockedAddress, isBlockedAddress, outboundDispatcher } from './guarded-fetch.js';
