/**
 * `POST /v1/runs/{runId}/cancel` (docs/cancellation.md#cancel): stop one of the caller's runs before its end. The run
 * is read as the status route reads it (docs/run-ownership.md: another caller's run answers as an unknown one, 404
 * `code: "run_not_found"`); a run that has ended is a 409 `RunAlreadyFinishedError`. Otherwise its stop is recorded —
 * `CANCELLED`, its usage so far, a `RunCancelledError` report — and the answer is 202 with the run's status, as the
 * status route gives it, while the run's work is aborted wherever it runs.
 */
import { Router } from 'express';
import type { ErrorDisclosure } from '../../shared/errors/index.js';
import { RunAlreadyFinishedError } from '../../shared/errors/index.js';
import type { RunEventLog, RunObjects, RunStopper, RunStore } from '../../shared/orchestration/index.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { RUN_READ } from '../openapi/schemas/run-result.js';
import { parseRequest } from '../request-schema.js';
import { readOwnedOrKeptRun } from '../run-ownership.js';
import { sendJson } from '../send-json.js';
import { READ_PROBLEMS, RUN_ID, RUN_QUERY, readProgress, runEnded, runStatus, runStatusBody } from './runs.js';

/** `POST /v1/runs/{runId}/cancel`, as the OpenAPI document describes it. */
export const RUN_CANCEL_ROUTE: RouteSpec = {
  method: 'post',
  path: '/v1/runs/{runId}/cancel',
  operationId: 'cancel_run_v1_runs__run_id__cancel_post',
  tag: 'runs',
  summary: 'Cancel a run',
  description:
    'Stop a run before its end, in every orchestration mode: a queued run is removed from the queue, a running one is aborted on whichever process runs it (its provider calls in flight and its fanned-out children included). The run is recorded `CANCELLED` with its usage so far and a `RunCancelledError` report, its callbacks carry `CANCELLED`; the answer is its status (docs/cancellation.md). A run that has ended is a 409; another caller’s run answers as an unknown one (docs/run-ownership.md).',
  params: RUN_ID,
  query: RUN_QUERY,
  responses: { 202: { description: 'The run is recorded CANCELLED; its work stops.', schema: RUN_READ } },
  problems: [...READ_PROBLEMS, 'RunAlreadyFinishedError'],
};

/** What the cancel route needs. */
export interface RunCancelRouterOptions {
  /** The run records. */
  store: RunStore;
  /** The runs' progress (the answer's `progress` and `usage`). */
  events: RunEventLog;
  /** Finished runs kept in storage (a run whose record expired has ended). */
  objects: RunObjects;
  /** `ERROR_DISCLOSURE`: how much of the run's error report callers see. */
  disclosure: ErrorDisclosure;
  /** Stops runs. */
  stopper: RunStopper;
}

/**
 * Router serving `POST /v1/runs/{runId}/cancel`.
 * @param options - run store, event log, run objects, disclosure mode and the stopper
 */
export function runCancelRouter(options: RunCancelRouterOptions): Router {
  const { store, events, objects, disclosure, stopper } = options;
  const router = Router();
  router.post('/v1/runs/:runId/cancel', async (req, res) => {
    const runId = String(req.params['runId']);
    const scope = parseRequest(RUN_QUERY, req.query, 'query').storage_scope;
    const identity = res.locals.identity;
    let record = await readOwnedOrKeptRun(store, objects, runId, identity, scope);
    if (!runEnded(record)) {
      const [outcome] = await stopper.stop([{ pipelineRunId: runId, owner: identity.userId }], 'CANCELLED');
      // read again: the stop's record, or the end that came first
      record = await readOwnedOrKeptRun(store, objects, runId, identity, scope);
      if (outcome === 'stopped') {
        sendJson(res, 202, await runStatusBody(record, readProgress(events, runId), disclosure));
        return;
      }
    }
    const status = runStatus(record);
    throw new RunAlreadyFinishedError(
      `Run '${runId}' has already ended with status ${status}: there is nothing to cancel.`,
      status,
    );
  });
  return router;
}
