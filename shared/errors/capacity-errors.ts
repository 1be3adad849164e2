/**
 * Errors of the service's own capacity: work on caller input runs in bounded worker-thread pools (docs/isolation.md),
 * and a pool that is full, or a task that outgrows its thread, is reported with these.
 * @see spec §7.2 (503 with `Retry-After`), spec §8 (limits)
 */
import { MthdsError } from './mthds-error.js';

/**
 * 503 (retryable, with `Retry-After`): every thread of a pool is busy and its wait queue is full, or the task waited
 * longer than the pool's queue deadline. Nothing of the request was done; the same request may succeed later.
 */
export class ServerBusyError extends MthdsError {}

/**
 * 422: a task on caller input outgrew its isolated thread — its wall-clock budget or its heap limit — and the thread
 * was stopped, or a dry run ran more pipes than it may (docs/limits.md#dry-runs). The detail names the limit and its
 * setting; a smaller request fits.
 */
export class ComputeBudgetExceededError extends MthdsError {}

/**
 * 503 (retryable, with `Retry-After`) from `GET /ready`: the process is alive but not warm yet — its diagnostics
 * threads and formatter are still loading or failed to load, or (queue mode) Redis does not answer. The detail names
 * each failing check.
 */
export class ServiceNotReadyError extends MthdsError {}
