/**
 * Errors of run ownership: who may use a `storage_scope` and a `pipeline_run_id` (spec §2.3, §3, §5 rule 5, §7.2;
 * docs/run-ownership.md). Both are authored by the HTTP layer: `error_domain: "input"`, `retryable: false`.
 */
import { MthdsError } from './mthds-error.js';

/**
 * 403: a `storage_scope` the caller does not own — the "storage-ownership mismatch" of spec §5 rule 5 and §7.2. In
 * `jwt` mode a scope must start with the caller's own `user_id` or lie under a prefix of its token's `storage_scopes`
 * claim (code `storage_ownership_mismatch`).
 */
export class StorageOwnershipMismatchError extends MthdsError {}
/**
 * 409: a `pipeline_run_id` held by another caller's run, in flight or finished, for as long as that run's record is
 * kept (code `run_id_taken`). The detail is the same in either state and never names the other caller.
 */
export class PipelineRunIdTakenError extends MthdsError {}
