/**
 * Public surface of `shared/orchestration/callbacks`: completion callbacks of `/v1/start` runs (spec §6).
 */

export { failurePayload, successPayload } from './callback-payload.js';
export { type CallbackDelivery, deliverCallback } from './deliver-callback.js';
