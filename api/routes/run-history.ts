/**
 * The run history and usage routes (docs/api.md#run-history, docs/api.md#usage): `GET /v1/runs` (the caller's runs,
 * newest first, filtered, with a keyset cursor), `GET /v1/runs/{run_id}` (one run with what was sent),
 * `PUT /v1/runs/{run_id}` (a client's record of a run's state) and `GET /v1/usage` (calls, tokens and cost, grouped).
 * Served only with a control plane. A caller sees its own runs only: another owner's run answers as an unknown one.
 */
import { Router } from 'express';
import { z } from 'zod';
import { whenDatabaseReachable } from '../../shared/database/index.js';
import { RunNotFoundError } from '../../shared/errors/index.js';
import type { RunObjects } from '../../shared/orchestration/index.js';
import { runHistoryDetail, runHistoryItem } from '../../shared/wire/index.js';
import { type JsonBodyLimits, jsonBody } from '../body/json-body.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { RUN_HISTORY_DETAIL, RUN_HISTORY_PAGE, USAGE_LEDGER } from '../openapi/schemas/run-history.js';
import { parseRequest } from '../request-schema.js';
import { BARE_METHOD_ID, filterStates, INSTANT } from '../requests/run-history-filters.js';
import type { RunHistoryService } from '../run-history-service.js';
import { sendJson } from '../send-json.js';

/** The states a run goes through, and those a client's `PUT` may record (the hosted API's names). */
const RUN_STATES = [
  'PENDING',
  'STARTED',
  'RUNNING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'TERMINATED',
  'TIMED_OUT',
  'ERROR',
] as const;

const LIST_QUERY = z.object({
  method_id: BARE_METHOD_ID.optional().meta({ description: 'Runs of this stored method (bare `mt_…` id).' }),
  state: z
    .string()
    .optional()
    .meta({ description: 'Comma-separated states (`FAILED,CANCELLED`); any of them matches.' }),
  status: z.string().optional().meta({ description: 'Same as `state` (the hosted API’s name).' }),
  pipe_code: z.string().max(256).optional(),
  error_type: z.string().max(256).optional(),
  created_from: INSTANT.optional().meta({ description: 'Runs created at or after this instant.' }),
  created_to: INSTANT.optional().meta({ description: 'Runs created at or before this instant.' }),
  limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: 'Page size, 1–200.' }),
  cursor: z.string().max(512).optional().meta({ description: 'The `next_cursor` of the previous page.' }),
});

const RUN_ID = z.object({ runId: z.string().min(1).max(128) });

const UPDATE_BODY = z
  .object({
    status: z.enum(RUN_STATES),
    result_url: z.url().max(2048).nullish(),
    finished_at: z.iso.datetime({ offset: true }).nullish(),
  })
  .meta({ id: 'RunHistoryUpdate', description: 'A client’s record of a run’s state.' });

const DAY_MS = 86_400_000;

const USAGE_QUERY = z.object({
  from: INSTANT.optional().meta({ description: 'Runs created at or after this instant; default 30 days before `to`.' }),
  to: INSTANT.optional().meta({ description: 'Runs created before this instant; default now.' }),
  group_by: z.enum(['method', 'model', 'pipe', 'day']).default('day'),
});

const RUN_PROBLEMS: RouteSpec['problems'] = ['ValidationError', 'ControlPlaneUnavailableError'];

/** The history and usage routes, as the OpenAPI document describes them. */
export const RUN_HISTORY_ROUTES: readonly RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/runs',
    operationId: 'list_runs_v1_runs_get',
    tag: 'run',
    summary: 'List runs',
    description:
      'The caller’s runs, newest first, filtered by method, state, pipe, error type and creation range; a keyset cursor pages through them (docs/api.md#run-history).',
    query: LIST_QUERY,
    responses: { 200: { description: 'One page of runs.', schema: RUN_HISTORY_PAGE } },
    problems: [...RUN_PROBLEMS, 'BadRequest'],
  },
  {
    method: 'get',
    path: '/v1/runs/{runId}',
    operationId: 'get_run_v1_runs__run_id__get',
    tag: 'run',
    summary: 'Get a run',
    description: 'One of the caller’s runs, with its bundle texts and inputs as sent (docs/api.md#run-history).',
    params: RUN_ID,
    responses: { 200: { description: 'The run.', schema: RUN_HISTORY_DETAIL } },
    problems: [...RUN_PROBLEMS, 'RunNotFoundError'],
  },
  {
    method: 'put',
    path: '/v1/runs/{runId}',
    operationId: 'update_run_v1_runs__run_id__put',
    tag: 'run',
    summary: 'Record a run’s state',
    description:
      'Record a state, result URL and end time a client observed for one of its runs; the runner’s own later writes of the run replace them (docs/api.md#run-history).',
    params: RUN_ID,
    body: { id: 'RunHistoryUpdate', schema: UPDATE_BODY, example: { status: 'COMPLETED' } },
    responses: { 200: { description: 'The run as recorded.', schema: RUN_HISTORY_DETAIL } },
    problems: [...RUN_PROBLEMS, 'RunNotFoundError', 'InvalidJSON'],
  },
  {
    method: 'get',
    path: '/v1/usage',
    operationId: 'get_usage_v1_usage_get',
    tag: 'run',
    summary: 'Usage and cost',
    description:
      'Inference calls, tokens and USD of the caller’s runs created in a range, grouped by method, model, pipe or UTC day (docs/api.md#usage).',
    query: USAGE_QUERY,
    responses: { 200: { description: 'The ledger.', schema: USAGE_LEDGER } },
    problems: [...RUN_PROBLEMS, 'BadRequest'],
  },
];

/** What the history routes need. */
export interface RunHistoryRouterOptions extends JsonBodyLimits {
  /** The service, once the control plane is open. */
  service: Promise<RunHistoryService>;
  /** Where the runs as sent are kept. */
  objects: RunObjects;
  diagnostics: DiagnosticsPool;
  now: () => number;
}

function notFound(runId: string): RunNotFoundError {
  return new RunNotFoundError(`No run '${runId}' is in your history (runs are kept RUN_HISTORY_RETENTION_DAYS).`);
}

/**
 * Router serving the history and usage routes.
 * @param options - the service, the run objects, the body limits and the clock
 */
export function runHistoryRouter(options: RunHistoryRouterOptions): Router {
  const router = Router();
  const body = jsonBody(options, 'typed', options.diagnostics);
  router.get('/v1/runs', async (req, res) => {
    const query = parseRequest(LIST_QUERY, req.query, 'query');
    const owner: string = res.locals.identity.userId;
    const service = await options.service;
    // The runs this process just wrote reach the history before they are listed (a failure leaves them to the writer).
    await service.writer.catchUp().catch(() => undefined);
    const page = await whenDatabaseReachable(() =>
      service.history.list(
        owner,
        {
          ...(query.method_id !== undefined ? { methodId: query.method_id } : {}),
          ...(filterStates(query) !== undefined ? { states: filterStates(query) } : {}),
          ...(query.pipe_code !== undefined ? { pipeCode: query.pipe_code } : {}),
          ...(query.error_type !== undefined ? { errorType: query.error_type } : {}),
          ...(query.created_from !== undefined ? { createdFrom: new Date(query.created_from) } : {}),
          ...(query.created_to !== undefined ? { createdTo: new Date(query.created_to) } : {}),
        },
        { limit: query.limit, ...(query.cursor !== undefined ? { cursor: query.cursor } : {}) },
      ),
    );
    sendJson(res, 200, { items: page.items.map(runHistoryItem), next_cursor: page.nextCursor });
  });
  router.get('/v1/runs/:runId', async (req, res) => {
    const { runId } = parseRequest(RUN_ID, req.params, 'path');
    const service = await options.service;
    await service.writer.catchUp().catch(() => undefined);
    const owner: string = res.locals.identity.userId;
    const row = await whenDatabaseReachable(() => service.history.find(owner, runId));
    if (!row) throw notFound(runId);
    const retries = await whenDatabaseReachable(() => service.history.retriesOf(owner, runId));
    sendJson(
      res,
      200,
      runHistoryDetail(row, await options.objects.submissions.read(row.storage_scope, runId), retries),
    );
  });
  router.put('/v1/runs/:runId', body, async (req, res) => {
    const { runId } = parseRequest(RUN_ID, req.params, 'path');
    const update = parseRequest(UPDATE_BODY, req.body);
    const service = await options.service;
    const row = await whenDatabaseReachable(() =>
      service.history.update(res.locals.identity.userId, runId, {
        state: update.status,
        ...(update.result_url !== undefined ? { resultUrl: update.result_url } : {}),
        ...(update.finished_at !== undefined ? { finishedAt: update.finished_at } : {}),
      }),
    );
    if (!row) throw notFound(runId);
    const retries = await whenDatabaseReachable(() => service.history.retriesOf(res.locals.identity.userId, runId));
    sendJson(
      res,
      200,
      runHistoryDetail(row, await options.objects.submissions.read(row.storage_scope, runId), retries),
    );
  });
  router.get('/v1/usage', async (req, res) => {
    const query = parseRequest(USAGE_QUERY, req.query, 'query');
    const to = query.to !== undefined ? new Date(query.to) : new Date(options.now());
    const from = query.from !== undefined ? new Date(query.from) : new Date(to.getTime() - 30 * DAY_MS);
    const service = await options.service;
    await service.writer.catchUp().catch(() => undefined);
    const report = await whenDatabaseReachable(() =>
      service.usage.report(res.locals.identity.userId, { from, to }, query.group_by),
    );
    const figures = (group: (typeof report.groups)[number]) => ({
      runs: group.runs,
      calls: group.calls,
      input_tokens: group.inputTokens,
      output_tokens: group.outputTokens,
      cost_usd: group.costUsd,
    });
    sendJson(res, 200, {
      from: from.toISOString(),
      to: to.toISOString(),
      group_by: query.group_by,
      groups: report.groups.map((group) => ({ key: group.key, ...figures(group) })),
      total: figures(report.total),
    });
  });
  return router;
}
