/**
 * The run lifecycle routes the MTHDS JS client polls (docs/api.md#run-lifecycle): `GET /v1/runs/{id}/status` and
 * `GET /v1/runs/{id}/results`, and our `GET /v1/runs/{id}/usage` (the run's usage and cost), served from the run store
 * in every orchestration mode (docs/api.md#run-lifecycle).
 * An unknown id is a 404 whose problem document carries `code: "run_not_found"` (so clients tell it from "route not
 * served"). A run is visible only to its owner: another caller's run answers exactly as an unknown id does
 * (docs/run-ownership.md). The status reports the run's progress (its current pipe and finished pipes); a failed run's
 * status and its 409 on results carry its error report under `error` (docs/run-events.md#why-a-run-failed).
 * Once the record expired, both read the finished run kept in storage under its scope (`?storage_scope=`, else the
 * caller's own id), and a result's stored documents and images are served as URLs the caller can fetch
 * (docs/storage.md#results-beyond-the-run-record).
 */
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { disclosedReport, type ErrorDisclosure, RunResultUnavailableError } from '../../shared/errors/index.js';
import {
  type RunError,
  type RunEventLog,
  type RunObjects,
  type RunProgress,
  type RunRecord,
  type RunStore,
  runError,
} from '../../shared/orchestration/index.js';
import { type RunUsageReport, runResultsBody } from '../../shared/wire/index.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { RUN_PENDING, RUN_READ, RUN_RESULTS, RUN_USAGE } from '../openapi/schemas/run-result.js';
import { parseRequest } from '../request-schema.js';
import { RESULT_ARTIFACTS } from '../requests/result-artifacts.js';
import { STORAGE_SCOPE } from '../requests/storage-scope.js';
import { readOwnedOrKeptRun } from '../run-ownership.js';
import { sendJson } from '../send-json.js';
import type { StorageLinks } from '../storage-links.js';
import { withFetchableUrls } from '../storage-urls.js';

/** The path parameter of the lifecycle routes. */
export const RUN_ID = z.object({
  runId: z.string().meta({ description: 'The `pipeline_run_id` of a run this caller started.' }),
});

/** The query of the lifecycle routes: where to look for a run whose record expired. */
export const RUN_QUERY = z.object({
  storage_scope: STORAGE_SCOPE.optional().meta({
    description:
      'Where to look for the run once its record expired: the `storage_scope` it ran under (default: the caller’s own id; docs/storage.md).',
  }),
});

const RESULTS_QUERY = RUN_QUERY.extend({ artifacts: RESULT_ARTIFACTS.optional() });

/** The problems every lifecycle route may answer: a bad query, an unknown (or foreign) run, a scope, an outage. */
export const READ_PROBLEMS: RouteSpec['problems'] = [
  'ValidationError',
  'RunNotFoundError',
  'StorageOwnershipMismatchError',
  'QueueUnavailableError',
  'StorageUnavailableError',
];

/** `GET /v1/runs/{runId}/status`, `/results` and `/usage`, as the OpenAPI document describes them. */
export const RUNS_ROUTES: readonly RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/runs/{runId}/status',
    operationId: 'get_run_status_v1_runs__run_id__status_get',
    tag: 'runs',
    summary: 'Run status',
    description:
      'Where a run stands: `PENDING`, `RUNNING`, `COMPLETED`, `FAILED`, or stopped: `CANCELLED`, `TIMED_OUT` (docs/cancellation.md), with the error report of a failed or stopped run (docs/run-failures.md). Another caller’s run answers as an unknown one (docs/run-ownership.md).',
    params: RUN_ID,
    query: RUN_QUERY,
    responses: { 200: { description: 'The run’s status.', schema: RUN_READ } },
    problems: READ_PROBLEMS,
  },
  {
    method: 'get',
    path: '/v1/runs/{runId}/results',
    operationId: 'get_run_results_v1_runs__run_id__results_get',
    tag: 'runs',
    summary: 'Run results',
    description:
      'The result of a completed run, artifact by artifact (`?artifacts=` selects them; docs/api.md#run-results); 202 with `Retry-After` while it runs; 409 with `run_status` and `error` when it finished without a result. Kept in storage beyond the run record; stored documents and images are fetchable URLs (docs/storage.md).',
    params: RUN_ID,
    query: RESULTS_QUERY,
    responses: {
      200: { description: 'The run completed.', schema: RUN_RESULTS },
      202: {
        description: 'The run has not finished.',
        schema: RUN_PENDING,
        headers: ['Retry-After'],
      },
    },
    problems: [...READ_PROBLEMS, 'BadRequest', 'RunResultUnavailableError'],
  },
  {
    method: 'get',
    path: '/v1/runs/{runId}/usage',
    operationId: 'get_run_usage_v1_runs__run_id__usage_get',
    tag: 'runs',
    summary: 'Run usage and cost',
    description:
      'What a run used and cost — tokens, calls and USD in total, by model and by pipe — so far while it runs, final once it ended (docs/run-events.md#usage-and-cost). Another caller’s run answers as an unknown one (docs/run-ownership.md).',
    params: RUN_ID,
    query: RUN_QUERY,
    responses: { 200: { description: 'The run’s usage and cost.', schema: RUN_USAGE } },
    problems: READ_PROBLEMS,
  },
];

/**
 * The `storage_scope` query parameter of a lifecycle route.
 * @throws ValidationError (422) for a value that is not one valid storage scope
 */
function requestedScope(req: Request): string | undefined {
  return parseRequest(RUN_QUERY, req.query, 'query').storage_scope;
}

/**
 * `status` vocabulary of the lifecycle routes (docs/api.md#run-lifecycle): the MTHDS JS client's, whose terminal
 * statuses include the stops `CANCELLED` and `TIMED_OUT` (docs/cancellation.md).
 */
export type RunStatus = 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TIMED_OUT';

/** Seconds a poller should wait before asking again for an unfinished run. */
const RETRY_AFTER_SECONDS = 1;

const STATUS_OF: Record<RunRecord['state'], RunStatus> = {
  STARTED: 'PENDING',
  RUNNING: 'RUNNING',
  COMPLETED: 'COMPLETED',
  FAILED: 'FAILED',
  ERROR: 'FAILED',
  CANCELLED: 'CANCELLED',
  TIMED_OUT: 'TIMED_OUT',
};

/**
 * The lifecycle status of a record.
 * @param record - a run record
 */
export function runStatus(record: RunRecord): RunStatus {
  return STATUS_OF[record.state];
}

/**
 * Whether a run has ended (nothing more will happen to it).
 * @param record - a run record
 */
export function runEnded(record: RunRecord): boolean {
  const status = runStatus(record);
  return status !== 'PENDING' && status !== 'RUNNING';
}

/**
 * The error report of a failed run as a caller may see it (`ERROR_DISCLOSURE`).
 * @param record - a run record
 * @param disclosure - the deployment's disclosure mode
 * @returns the report with `retryable` and `pipe_code`, or undefined when the run has none
 */
export function disclosedRunError(record: RunRecord, disclosure: ErrorDisclosure): RunError | undefined {
  return record.error ? runError(disclosedReport(record.error, disclosure)) : undefined;
}

/** A run's progress and usage as the status route reports them. */
interface ProgressAndUsage {
  progress: Omit<RunProgress, 'usage'>;
  /** The completed run's report, else the latest one its events stored; null when none is known. */
  usage: RunUsageReport | null;
}

/**
 * Start reading a run's progress, beside the read of its record: the two are independent reads, so the status route
 * pays one round trip for both. A failure surfaces when {@link progressOf} awaits it (never as an unhandled rejection,
 * and not at all when the record read fails first).
 * @param events - the run event log
 * @param runId - the route's `pipeline_run_id`
 */
export function readProgress(events: RunEventLog, runId: string): Promise<RunProgress | undefined> {
  const reading = events.progress(runId);
  reading.catch(() => undefined);
  return reading;
}

async function progressOf(reading: Promise<RunProgress | undefined>, record: RunRecord): Promise<ProgressAndUsage> {
  const { usage, ...progress } = (await reading) ?? {
    current_pipe: null,
    finished_pipes: 0,
  };
  return {
    progress: runEnded(record) ? { ...progress, current_pipe: null } : progress,
    usage: record.result?.usage ?? usage ?? null,
  };
}

/**
 * The body of `GET /v1/runs/{id}/status` (`RunRead`): the record's status and times, its progress, a failed or stopped
 * run's error report and its usage so far.
 * @param record - the run's record
 * @param reading - the read of its progress ({@link readProgress})
 * @param disclosure - the deployment's disclosure mode
 */
export async function runStatusBody(
  record: RunRecord,
  reading: Promise<RunProgress | undefined>,
  disclosure: ErrorDisclosure,
): Promise<Record<string, unknown>> {
  const error = disclosedRunError(record, disclosure);
  const { progress, usage } = await progressOf(reading, record);
  return {
    pipeline_run_id: record.pipeline_run_id,
    pipe_code: record.pipe_code,
    status: runStatus(record),
    state: record.state,
    workflow_id: record.workflow_id,
    created_at: record.created_at,
    started_at: record.started_at,
    finished_at: record.finished_at,
    degraded: false,
    progress,
    ...(error ? { error } : {}),
    usage,
    ...(record.trace_id ? { trace_id: record.trace_id } : {}),
  };
}

/**
 * The 409 of a run that ended without a result: its status and error report, the report's message in the detail.
 * @param record - the ended run
 * @param status - its lifecycle status
 * @param disclosure - the deployment's disclosure mode
 */
function resultUnavailable(
  record: RunRecord,
  status: RunStatus,
  disclosure: ErrorDisclosure,
): RunResultUnavailableError {
  const error = disclosedRunError(record, disclosure);
  const detail = error
    ? `Run finished with status ${status}: ${error.message}`
    : `Run finished with status ${status}; no result available`;
  return new RunResultUnavailableError(detail, status, error ?? null);
}

/** What the lifecycle routes read. */
export interface RunsRouterOptions {
  /** The run records (the Redis registry, or the in-memory store of a deployment without Redis). */
  store: RunStore;
  /** The runs' events and progress, likewise. */
  events: RunEventLog;
  /** `ERROR_DISCLOSURE`: how much of a failed run's error report callers see (spec §7.5). */
  disclosure: ErrorDisclosure;
  /** Finished runs kept in storage, read once their record expired. */
  objects: RunObjects;
  /** Signs the links of stored files in a result (docs/uploads.md#in-results). */
  links: StorageLinks;
}

/**
 * Router serving the status, results and usage routes.
 * @param options - run store, event log and disclosure mode
 */
export function runsRouter(options: RunsRouterOptions): Router {
  const { store, events, disclosure, objects } = options;
  const router = Router();
  const read = (req: Request, res: Response) =>
    readOwnedOrKeptRun(store, objects, String(req.params['runId']), res.locals.identity, requestedScope(req));
  router.get('/v1/runs/:runId/status', async (req, res) => {
    const reading = readProgress(events, String(req.params['runId']));
    const record = await read(req, res);
    sendJson(res, 200, await runStatusBody(record, reading, disclosure));
  });
  router.get('/v1/runs/:runId/results', async (req, res) => {
    const { storage_scope: scope, artifacts } = parseRequest(RESULTS_QUERY, req.query, 'query');
    const record = await readOwnedOrKeptRun(store, objects, String(req.params['runId']), res.locals.identity, scope);
    const status = runStatus(record);
    if (status === 'PENDING' || status === 'RUNNING') {
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      sendJson(res, 202, { pipeline_run_id: record.pipeline_run_id, status });
      return;
    }
    if (status !== 'COMPLETED' || !record.result) throw resultUnavailable(record, status, disclosure);
    const body = {
      ...runResultsBody(record.result, record.io_artifacts, artifacts),
      ...(record.trace_id ? { trace_id: record.trace_id } : {}),
    };
    sendJson(res, 200, await withFetchableUrls(body, res.locals.identity, { links: options.links, req }));
  });
  router.get('/v1/runs/:runId/usage', async (req, res) => {
    const reading = readProgress(events, String(req.params['runId']));
    const record = await read(req, res);
    const { usage } = await progressOf(reading, record);
    sendJson(res, 200, { pipeline_run_id: record.pipeline_run_id, status: runStatus(record), usage });
  });
  return router;
}
