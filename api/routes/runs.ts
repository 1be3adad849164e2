/**
 * The run lifecycle routes the MTHDS JS client polls (CLIENTS.md §5): `GET /v1/runs/{id}/status` and
 * `GET /v1/runs/{id}/results`, served from the run registry. An unknown id is a 404 whose problem document carries
 * `code: "run_not_found"` (so clients tell it from "route not served"). A run is visible only to its owner: another
 * caller's run answers exactly as an unknown id does (docs/run-ownership.md). The status of a failed run carries its
 * error report under `error` (an extra member `RunRead` allows; docs/run-failures.md).
 */
import { Router } from 'express';
import { z } from 'zod';
import { RunNotFoundError, RunResultUnavailableError } from '../../shared/errors/index.js';
import type { RunRecord, RunRegistry } from '../../shared/orchestration/index.js';
import type { Identity } from '../middleware/authenticate.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { RUN_PENDING, RUN_READ, RUN_RESULTS } from '../openapi/schemas/run-result.js';
import { sendJson } from '../send-json.js';

const RUN_ID = z.object({
  runId: z.string().meta({ description: 'The `pipeline_run_id` of a run this caller started.' }),
});

/** `GET /v1/runs/{runId}/status` and `/results`, as the OpenAPI document describes them. */
export const RUNS_ROUTES: readonly RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/runs/{runId}/status',
    operationId: 'get_run_status_v1_runs__run_id__status_get',
    tag: 'runs',
    summary: 'Run status',
    description:
      'Where a run stands: `PENDING`, `RUNNING`, `COMPLETED` or `FAILED`, with the error report of a failed run (docs/run-failures.md). Another caller’s run answers as an unknown one (docs/run-ownership.md).',
    params: RUN_ID,
    responses: { 200: { description: 'The run’s status.', schema: RUN_READ } },
    problems: ['RunNotFoundError', 'QueueUnavailableError'],
  },
  {
    method: 'get',
    path: '/v1/runs/{runId}/results',
    operationId: 'get_run_results_v1_runs__run_id__results_get',
    tag: 'runs',
    summary: 'Run results',
    description:
      'The result of a completed run; 202 with `Retry-After` while it runs; 409 when it finished without a result.',
    params: RUN_ID,
    responses: {
      200: { description: 'The run completed.', schema: RUN_RESULTS },
      202: {
        description: 'The run has not finished.',
        schema: RUN_PENDING,
        headers: ['Retry-After'],
      },
    },
    problems: ['RunNotFoundError', 'RunResultUnavailableError', 'QueueUnavailableError'],
  },
];

/** `status` vocabulary of the lifecycle routes (CLIENTS.md §5.1). */
export type RunStatus = 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED';

/** Seconds a poller should wait before asking again for an unfinished run. */
const RETRY_AFTER_SECONDS = 1;

const STATUS_OF: Record<RunRecord['state'], RunStatus> = {
  STARTED: 'PENDING',
  RUNNING: 'RUNNING',
  COMPLETED: 'COMPLETED',
  FAILED: 'FAILED',
  ERROR: 'FAILED',
  CANCELLED: 'FAILED',
};

async function ownRun(registry: RunRegistry, runId: string, identity: Identity): Promise<RunRecord> {
  const record = await registry.getOwned(runId, identity.userId);
  if (!record)
    throw new RunNotFoundError(`No run '${runId}' is known (runs are kept RUN_RECORD_TTL_SECONDS after they finish).`);
  return record;
}

function mainStuffOf(record: RunRecord): unknown {
  const result = record.result;
  if (!result?.main_stuff_name) return null;
  const content = result.pipe_output.working_memory.root[result.main_stuff_name]?.content;
  return content !== undefined && 'items' in content && Array.isArray(content['items'])
    ? content['items']
    : (content ?? null);
}

/**
 * Router serving the lifecycle routes.
 * @param registry - the run registry
 */
export function runsRouter(registry: RunRegistry): Router {
  const router = Router();
  router.get('/v1/runs/:runId/status', async (req, res) => {
    const record = await ownRun(registry, req.params.runId, res.locals.identity);
    sendJson(res, 200, {
      pipeline_run_id: record.pipeline_run_id,
      pipe_code: record.pipe_code,
      status: STATUS_OF[record.state],
      state: record.state,
      workflow_id: record.workflow_id,
      created_at: record.created_at,
      started_at: record.started_at,
      finished_at: record.finished_at,
      degraded: false,
      ...(record.error ? { error: record.error } : {}),
    });
  });
  router.get('/v1/runs/:runId/results', async (req, res) => {
    const record = await ownRun(registry, req.params.runId, res.locals.identity);
    const status = STATUS_OF[record.state];
    if (status === 'PENDING' || status === 'RUNNING') {
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      sendJson(res, 202, { pipeline_run_id: record.pipeline_run_id, status });
      return;
    }
    if (status !== 'COMPLETED' || !record.result)
      throw new RunResultUnavailableError(`Run finished with status ${status}; no result available`);
    sendJson(res, 200, {
      pipeline_run_id: record.pipeline_run_id,
      main_stuff: mainStuffOf(record),
      graph_spec: null,
      pipe_output: record.result.pipe_output,
    });
  });
  return router;
}
