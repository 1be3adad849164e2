/**
 * `POST /v1/runs/{runId}/retry` (docs/api.md#retrying-a-run, docs/checkpoints.md#retrying-a-run): a run that ended
 * `FAILED`, `CANCELLED` or `TIMED_OUT` starts again as a new run — a new `pipeline_run_id`, the same submission — that
 * replays the steps the original finished from their checkpoints. Owner-checked like the status route: another
 * caller's run answers exactly as an unknown id (docs/run-ownership.md). Queue mode only: a retry is a queued run, so a
 * deployment without a queue backend answers 400 `StartRequiresAsyncOrchestration`, as `/v1/start` does. An
 * `Idempotency-Key` makes one retry of the run per key (docs/api.md#idempotency).
 */
import { Router } from 'express';
import { z } from 'zod';
import { StartRequiresAsyncOrchestration } from '../../shared/errors/index.js';
import type { RunObjects, RunRetrier, RunStore } from '../../shared/orchestration/index.js';
import { answerOnce } from '../idempotency.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { RUN_RETRY } from '../openapi/schemas/run-result.js';
import { parseRequest } from '../request-schema.js';
import { STORAGE_SCOPE } from '../requests/storage-scope.js';
import type { RunHistoryService } from '../run-history-service.js';
import { readOwnedOrKeptRun } from '../run-ownership.js';

const RUN_ID = z.object({
  runId: z.string().min(1).max(128).meta({ description: 'The `pipeline_run_id` of a run this caller started.' }),
});

const RETRY_QUERY = z.object({
  storage_scope: STORAGE_SCOPE.optional().meta({
    description:
      'Where to look for the run once its record expired: the `storage_scope` it ran under (default: the caller’s own id; docs/storage.md).',
  }),
});

/** `POST /v1/runs/{runId}/retry`, as the OpenAPI document describes it. */
export const RETRY_ROUTE: RouteSpec = {
  method: 'post',
  path: '/v1/runs/{runId}/retry',
  operationId: 'retry_run_v1_runs__run_id__retry_post',
  tag: 'runs',
  summary: 'Retry a run',
  description:
    'Start a `FAILED`, `CANCELLED` or `TIMED_OUT` run again as a new run (202, `/v1/start`’s acknowledgement plus `retry_of`): the same submission under a new `pipeline_run_id`, replaying the steps the original finished from their checkpoints, so no finished inference call is paid twice (docs/checkpoints.md#retrying-a-run). No body. 409 for a run in another state; another caller’s run answers as an unknown one (docs/run-ownership.md). Needs queue mode.',
  params: RUN_ID,
  query: RETRY_QUERY,
  responses: { 202: { description: 'The retry is enqueued.', schema: RUN_RETRY } },
  problems: [
    'StartRequiresAsyncOrchestration',
    'ValidationError',
    'RunNotFoundError',
    'StorageOwnershipMismatchError',
    'RunNotRetryableError',
    'RunSubmissionUnavailableError',
    'PipelineManagerAlreadyExistsError',
    'EnvVarNotFoundError',
    'IdempotencyKeyReusedError',
    'IdempotencyKeyInUseError',
    'ControlPlaneUnavailableError',
    'QueueUnavailableError',
    'StorageUnavailableError',
  ],
};

/** What the retry route needs. */
export interface RunRetryRouterOptions {
  /** The queue backend's retrier; absent on a deployment without one. */
  retrier: RunRetrier | undefined;
  /** The run records, read on behalf of the caller. */
  store: RunStore;
  /** Finished runs kept in storage, read once their record expired. */
  objects: RunObjects;
  /** The control plane's services (idempotency keys), when served. */
  runHistory?: Promise<RunHistoryService>;
}

/**
 * Router serving the retry route.
 * @param options - the retrier, the run store and objects, the control plane's services
 */
export function runRetryRouter(options: RunRetryRouterOptions): Router {
  const router = Router();
  router.post('/v1/runs/:runId/retry', async (req, res) => {
    const { runId } = parseRequest(RUN_ID, req.params, 'path');
    const { storage_scope: scope } = parseRequest(RETRY_QUERY, req.query, 'query');
    const { retrier } = options;
    if (!retrier)
      throw new StartRequiresAsyncOrchestration(
        'A retry is a queued run: POST /v1/runs/{id}/retry needs the queue backend, and this deployment runs in direct mode. To enable it, put orchestration_mode = "bullmq" in api_override.toml of SERVICE_CONFIG_DIR (default ./config), give REDIS_URL a Redis and restart; or send the run again to /v1/execute.',
      );
    // one retry per key and run: the run's id is part of the key's scope
    await answerOnce(req, res, options.runHistory, `POST /v1/runs/${runId}/retry`, 'quick', async () => {
      const original = await readOwnedOrKeptRun(options.store, options.objects, runId, res.locals.identity, scope);
      return { status: 202, body: await retrier.retry(original, res.locals.requestId) };
    });
  });
  return router;
}
