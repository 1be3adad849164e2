/**
 * What a run that ends `FAILED`, `CANCELLED` or `TIMED_OUT` keeps for its retries (docs/checkpoints.md#retrying-a-run):
 * its job payload as queued, in storage (`payloads/`, `STORAGE_RETENTION_PAYLOADS_HOURS`), and its step checkpoints,
 * in Redis (`RUN_CHECKPOINT_RETENTION_HOURS`). Whatever records such an end calls {@link keepRetryBasis}.
 */
import type { Logger } from '../../observability/index.js';
import type { RunCheckpoints } from '../checkpoints/index.js';
import type { QueuedRunJob } from '../queue/index.js';
import { keepPayloadForRetry, type RunObjects } from '../storage/index.js';

/** What keeping a retry's basis needs. */
export interface RetryBasisDeps {
  /** Where the payload is kept. */
  objects: RunObjects;
  /** The runs' step checkpoints. */
  checkpoints: RunCheckpoints;
  /** Where a failure to keep either is logged. */
  logger: Logger;
}

/**
 * Keep a run's payload and checkpoints for its retries. Never throws: a payload that could not be kept makes a retry
 * answer 410 `RunSubmissionUnavailableError`, checkpoints that could not be kept make it run every step again; each
 * failure is logged.
 * @param deps - the run objects, the checkpoints and the logger
 * @param queued - the run's job as queued
 */
export async function keepRetryBasis(deps: RetryBasisDeps, queued: QueuedRunJob): Promise<void> {
  const runId = queued.pipeline_run_id;
  await Promise.all([
    keepPayloadForRetry(deps.objects.store, queued).catch((error: unknown) =>
      deps.logger.warn({ err: error, pipeline_run_id: runId }, 'run:payload could not be kept for a retry'),
    ),
    deps.checkpoints
      .retain(runId)
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, pipeline_run_id: runId }, 'run:checkpoints could not be kept for a retry'),
      ),
  ]);
}
