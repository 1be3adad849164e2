/**
 * Public surface of `shared/orchestration/callbacks`: completion callbacks of `/v1/start` runs (spec §6).
 */

export { failurePayload, successPayload } from './callback-payload.js';
export { deliverCallback, type CallbackDelivery } from './deliver-callback.js';
