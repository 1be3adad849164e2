/**
 * Errors of what the control plane keeps (docs/control-plane.md): its availability and the idempotency keys
 * (docs/api.md#idempotency). Each carries a `code`.
 */
import { MthdsError } from './mthds-error.js';

/**
 * 503: the control plane's database cannot be reached, so what needs it now (a key check, an idempotency key, a
 * listing) cannot be answered; retry later (retryable; code `control_plane_unavailable`). Runs already accepted are
 * not affected: their history catches up when the database returns.
 */
export class ControlPlaneUnavailableError extends MthdsError {}
/**
 * 409: an `Idempotency-Key` already used, on this route and by this caller, with another request body (code
 * `idempotency_key_reused`); send a new key for a new request.
 */
export class IdempotencyKeyReusedError extends MthdsError {}
/**
 * 409: the first request with this `Idempotency-Key` is still being answered (a blocking run); retry later to get its
 * answer (retryable; code `idempotency_key_in_use`).
 */
export class IdempotencyKeyInUseError extends MthdsError {}
