/**
 * Retrying a run (`POST /v1/runs/{id}/retry`; docs/checkpoints.md#retrying-a-run): a run that ended `FAILED`,
 * `CANCELLED` or `TIMED_OUT` is started again as a new run — a new `pipeline_run_id`, the same submission — whose job
 * names the original in `replay_from`, so the new run replays the steps the original finished from their checkpoints
 * and pays only for the others. The history links the two (`retry_of`). This module holds the port and the mapping
 * from the original's job to the retry's; the queue mode's retrier is `queued-retrier.ts`.
 */
import { RunNotRetryableError } from '../../errors/index.js';
import type { RunState } from '../../wire/index.js';
import type { StartAcknowledgement } from '../orchestrator.js';
import type { RunJob } from '../queue/index.js';
import type { RunRecord } from '../registry/index.js';

/** The states a run is retried from. */
const RETRYABLE_STATES: ReadonlySet<RunState> = new Set<RunState>(['FAILED', 'CANCELLED', 'TIMED_OUT']);

/** The 202 acknowledgement of a retry: `/v1/start`'s, and the run it retries. */
export interface RetryAcknowledgement extends StartAcknowledgement {
  /** The `pipeline_run_id` of the run retried. */
  retry_of: string;
}

/** Where a retry goes (the queue backend's: a retry is a queued run). */
export interface RunRetrier {
  /**
   * Start a retry of a run.
   * @param original - the run's record, read on behalf of its owner
   * @param requestId - the id of the request that asks for the retry (the new run's `request_id`)
   * @returns the new run's acknowledgement
   * @throws RunNotRetryableError (409) for a run in another state than `FAILED`, `CANCELLED` or `TIMED_OUT`;
   *   RunSubmissionUnavailableError (410) when what the run was sent is no longer kept; EnvVarNotFoundError (500) for
   *   a run with `callback_urls` while `COMPLETION_CALLBACK_SECRET` is unset; QueueUnavailableError,
   *   StorageUnavailableError (503)
   */
  retry(original: RunRecord, requestId: string): Promise<RetryAcknowledgement>;
}

/**
 * Refuse a run that is not in a state a retry starts from.
 * @param record - the run's record
 * @throws RunNotRetryableError (409) unless the run is `FAILED`, `CANCELLED` or `TIMED_OUT`
 */
export function checkRetryable(record: RunRecord): void {
  if (!RETRYABLE_STATES.has(record.state))
    throw new RunNotRetryableError(
      `Run '${record.pipeline_run_id}' is ${record.state}: only a FAILED, CANCELLED or TIMED_OUT run can be retried.`,
      record.state,
    );
}

/** What tells a retry from its original. */
export interface RetryIdentity {
  /** The new run's id. */
  pipelineRunId: string;
  /** The id of the request that asked for it. */
  requestId: string;
  /** When it was accepted, epoch ms. */
  createdAt: number;
  /** Have the worker keep the run as sent (`submissions/`), for its history. */
  keepSubmission: boolean;
}

/**
 * The job of a retry: the original's submission (bundle and library files, inputs, pipe and run parameters, callbacks,
 * scope, owner, budget, method) under the retry's id, request and time, linked to the original in its history
 * (`retry_of`) and replaying from it (`replay_from`).
 * @param original - the original run's job, as queued
 * @param retry - the retry's id, request, time and whether its submission is kept
 */
export function retryJob(original: RunJob, retry: RetryIdentity): RunJob {
  const { keep_submission: _kept, retry_of: _retried, ...facts } = original.history ?? {};
  return {
    ...original,
    pipeline_run_id: retry.pipelineRunId,
    request_id: retry.requestId,
    created_at: retry.createdAt,
    history: {
      ...facts,
      retry_of: original.pipeline_run_id,
      ...(retry.keepSubmission ? { keep_submission: true } : {}),
    },
    replay_from: {
      pipeline_run_id: original.pipeline_run_id,
      request_id: original.request_id,
      created_at: original.created_at,
    },
  };
}
