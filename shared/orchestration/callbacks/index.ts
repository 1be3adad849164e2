/**
 * Public surface of `shared/orchestration/callbacks`: completion callbacks of `/v1/start` runs (spec §6).
 */
export { BODY_SIGNATURE_HEADER, RUN_ID_SIGNATURE_HEADER, bodySignature, runIdSignature } from './callback-signature.js';
export { failurePayload, successPayload } from './callback-payload.js';
export { deliverCallback, type CallbackDelivery } from './deliver-callback.js';
