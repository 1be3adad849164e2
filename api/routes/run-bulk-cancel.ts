/**
 * `POST /v1/runs/cancel` (docs/cancellation.md#bulk-cancel): cancel the caller's runs that have not ended, chosen by
 * the run history's filters (states, `method_id`, `pipe_code`, creation range). Served with a control plane only, as
 * the history it reads. The runs are stopped as one cancel stops one (each recorded `CANCELLED` through the
 * finish-once step), in batches; the answer says how many this call cancelled.
 */
import { Router } from 'express';
import { z } from 'zod';
import { whenDatabaseReachable } from '../../shared/database/index.js';
import type { RunStopper } from '../../shared/orchestration/index.js';
import { type JsonBodyLimits, jsonBody } from '../body/json-body.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { RUN_CANCELLATIONS } from '../openapi/schemas/run-history.js';
import { parseRequest } from '../request-schema.js';
import { BARE_METHOD_ID, filterStates, INSTANT } from '../requests/run-history-filters.js';
import type { RunHistoryService } from '../run-history-service.js';
import { sendJson } from '../send-json.js';

/** Most runs one call cancels; a caller with more calls again. */
const BULK_CANCEL_MAX_RUNS = 10_000;

/** The states a run can be cancelled in, by the names a filter may use (`PENDING` is the hosted API's `STARTED`). */
const CANCELLABLE: Readonly<Record<string, string>> = { STARTED: 'STARTED', PENDING: 'STARTED', RUNNING: 'RUNNING' };

const STATES = z.union([z.string().max(256), z.array(z.string().max(32)).max(16)]);

const BULK_CANCEL_BODY = z
  .strictObject({
    state: STATES.optional().meta({
      description:
        'States to cancel (`STARTED` or `PENDING`, `RUNNING`): comma-separated, or a list; default both. Other states match no run.',
    }),
    status: STATES.optional().meta({ description: 'Same as `state` (the hosted API’s name).' }),
    method_id: BARE_METHOD_ID.optional().meta({ description: 'Runs of this stored method (bare `mt_…` id).' }),
    pipe_code: z.string().max(256).optional(),
    created_from: INSTANT.optional().meta({ description: 'Runs created at or after this instant.' }),
    created_to: INSTANT.optional().meta({ description: 'Runs created at or before this instant.' }),
  })
  .meta({
    id: 'RunBulkCancel',
    description: 'Which of the caller’s runs to cancel: the run history’s filters; `{}` cancels every run not ended.',
  });

/** `POST /v1/runs/cancel`, as the OpenAPI document describes it. */
export const RUN_BULK_CANCEL_ROUTE: RouteSpec = {
  method: 'post',
  path: '/v1/runs/cancel',
  operationId: 'cancel_runs_v1_runs_cancel_post',
  tag: 'run',
  summary: 'Cancel runs',
  description: `Cancel the caller’s runs that have not ended, chosen by the run history’s filters, up to ${BULK_CANCEL_MAX_RUNS.toLocaleString('en-US')} per call; each is stopped as \`POST /v1/runs/{runId}/cancel\` stops one. Answers how many were cancelled (docs/cancellation.md#bulk-cancel).`,
  body: { id: 'RunBulkCancel', schema: BULK_CANCEL_BODY, example: { state: 'STARTED', method_id: 'mt_example' } },
  responses: { 200: { description: 'How many runs were cancelled.', schema: RUN_CANCELLATIONS } },
  problems: ['ValidationError', 'BadRequest', 'InvalidJSON', 'ControlPlaneUnavailableError', 'QueueUnavailableError'],
};

/** What the bulk cancel needs. */
export interface RunBulkCancelRouterOptions extends JsonBodyLimits {
  /** The run history, once the control plane is open. */
  service: Promise<RunHistoryService>;
  /** Stops runs. */
  stopper: RunStopper;
  diagnostics: DiagnosticsPool;
}

/**
 * The states a body asks for, as the history keeps them.
 * @returns the cancellable states named (both when none is named; none when only others are)
 */
function cancellableStates(body: z.infer<typeof BULK_CANCEL_BODY>): string[] {
  const named = filterStates(body);
  if (named === undefined) return ['STARTED', 'RUNNING'];
  return [...new Set(named.flatMap((state) => (CANCELLABLE[state] ? [CANCELLABLE[state]] : [])))];
}

/**
 * Router serving `POST /v1/runs/cancel`.
 * @param options - the history service, the stopper, body limits and the diagnostics pool
 */
export function runBulkCancelRouter(options: RunBulkCancelRouterOptions): Router {
  const router = Router();
  router.post(RUN_BULK_CANCEL_ROUTE.path, jsonBody(options, 'typed', options.diagnostics), async (req, res) => {
    const body = parseRequest(BULK_CANCEL_BODY, req.body);
    const owner: string = res.locals.identity.userId;
    const states = cancellableStates(body);
    const service = await options.service;
    // the runs this process just wrote reach the history before it is read (a failure leaves them to the writer)
    await service.writer.catchUp().catch(() => undefined);
    const runIds =
      states.length === 0
        ? []
        : await whenDatabaseReachable(() =>
            service.history.unfinished(
              owner,
              {
                states,
                ...(body.method_id !== undefined ? { methodId: body.method_id } : {}),
                ...(body.pipe_code !== undefined ? { pipeCode: body.pipe_code } : {}),
                ...(body.created_from !== undefined ? { createdFrom: new Date(body.created_from) } : {}),
                ...(body.created_to !== undefined ? { createdTo: new Date(body.created_to) } : {}),
              },
              BULK_CANCEL_MAX_RUNS,
            ),
          );
    const outcomes = await options.stopper.stop(
      runIds.map((pipelineRunId) => ({ pipelineRunId, owner })),
      'CANCELLED',
    );
    sendJson(res, 200, { cancelled: outcomes.filter((outcome) => outcome === 'stopped').length });
  });
  return router;
}
