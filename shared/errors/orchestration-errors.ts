/**
 * Errors of run orchestration: dispatch, the queue, run ids and callbacks (spec §1.1, §3, §6, §7.2).
 */
import { MthdsError } from './mthds-error.js';

/** 409: a `pipeline_run_id` that is still in flight (spec §3 rule 3). */
export class PipelineManagerAlreadyExistsError extends MthdsError {}
/** 500: the orchestration mode names no registered backend (spec §1.1 "an unregistered token fails at dispatch"). */
export class MissingOrchestratorError extends MthdsError {}
/** 503 (retryable): the queue backend (Redis) cannot be reached; nothing was enqueued. */
export class QueueUnavailableError extends MthdsError {}
/**
 * 429 (retryable, with `Retry-After`): the caller's organization already has its waiting limit of runs in its line of
 * the dispatch gate (docs/fair-dispatch.md); nothing was stored.
 */
export class RunsWaitingLimitError extends MthdsError {}
/**
 * 403: a run asks for a priority above its organization's ceiling (docs/fair-dispatch.md#priorities); nothing was
 * stored.
 */
export class PriorityAboveCeilingError extends MthdsError {}
/** 504 (retryable): a blocking run did not finish within `EXECUTE_TIMEOUT_MS`; the run goes on and can be polled. */
export class RunTimeoutError extends MthdsError {}
/** A completion callback could not be delivered (worker side; recorded on the delivery job). */
export class CallbackDeliveryError extends MthdsError {}
/**
 * A queue job a worker refuses to act on (worker side; recorded on the job, never on a run): its seal does not verify,
 * or its run is not the one accepted under its id (docs/run-ownership.md#queue-jobs).
 */
export class QueueJobRefusedError extends MthdsError {}
