/**
 * The refusal of a run whose organization's line is full (docs/fair-dispatch.md#limits-and-refusals).
 */
import { RunsWaitingLimitError } from '../../errors/index.js';
import type { DispatchLimits } from '../registry/index.js';

/** `Retry-After` of a start refused because its organization's line is full, in seconds. */
const FULL_LINE_RETRY_AFTER_SECONDS = 5;

/**
 * The 429 of a start whose organization already has its waiting limit of runs in its line.
 * @param limits - the organization's limits
 * @returns RunsWaitingLimitError (429, retryable, `Retry-After: 5`)
 */
export function lineFull(limits: DispatchLimits): RunsWaitingLimitError {
  return new RunsWaitingLimitError(
    `Your organization already has ${limits.waiting} runs waiting for the run queue (RUN_ORG_WAITING_LIMIT); nothing was stored. Retry once some have started.`,
    { retryable: true, retryAfterSeconds: FULL_LINE_RETRY_AFTER_SECONDS },
  );
}
