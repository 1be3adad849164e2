/**
 * Recording a failed run (spec §6 rules 4–5): the run record becomes FAILED with the error report, the run's terminal
 * `run:finished` event follows it with the usage of its last attempt (docs/run-events.md), each callback URL gets the
 * failure payload, the run id is
 * released and the run is counted: as rejected when a caller error ended it (an input, a template of the bundle), else
 * as finished FAILED. Shared by the run processor and the handler of runs BullMQ failed without running them (stalled
 * twice). The failed record is also kept in storage (`results/`, docs/storage.md), and so are its payload and its step
 * checkpoints, for its retries (`POST /v1/runs/{id}/retry`, docs/checkpoints.md#retrying-a-run). A run that already
 * ended (its other party finished it first) is left as it is: nothing is written, published, sent or counted.
 */

import { type ErrorReport, errorFromReport } from '../../errors/index.js';
import type { Logger, Metrics } from '../../observability/index.js';
import { failurePayload } from '../callbacks/index.js';
import type { RunCheckpoints } from '../checkpoints/index.js';
import { type RunEventLog, runError, runFinishedEvent } from '../events/index.js';
import type { QueuedRunJob } from '../queue/index.js';
import type { RunStore } from '../registry/index.js';
import { keepRetryBasis } from '../retry/index.js';
import { countRejection } from '../run-rejections.js';
import type { RunObjects } from '../storage/index.js';
import type { CallbackSink } from './callback-sender.js';

/** What recording a failure needs. */
export interface RunFailureDeps {
  registry: RunStore;
  /** Where the terminal event goes (the attempt's earlier events are already there). */
  events: RunEventLog;
  /** Where its failure callbacks go (sent at once, retries queued). */
  callbacks: CallbackSink;
  metrics: Metrics;
  /** Where the failed run is kept beyond its record. */
  objects: RunObjects;
  /** The runs' step checkpoints (a failed run's are kept for its retries). */
  checkpoints: RunCheckpoints;
  /** Logs a failed run that could not be kept in storage. */
  logger: Logger;
  /** Clock, in ms since the epoch. */
  now(): number;
}

/**
 * Record a run as FAILED and release its id, publish its terminal event and send its failure callbacks — unless the
 * run already ended: the FAILED record is written only if the kept record has not finished, in one atomic step
 * (docs/run-failures.md#a-run-finishes-once), and a run that already ended is left exactly as it is.
 * @param deps - registry, event log, callback queue, metrics and clock
 * @param payload - the run's job payload (run id, request id, callback URLs, creation time in ms)
 * @param report - the error report stored on the record and sent in the event and the callbacks, with its `pipe_code`
 * @returns true when the failure was recorded; false when the run had already ended (nothing done)
 * @throws QueueUnavailableError when Redis cannot be reached
 */
export async function recordRunFailure(
  deps: RunFailureDeps,
  payload: QueuedRunJob,
  report: ErrorReport,
): Promise<boolean> {
  const runId = payload.pipeline_run_id;
  const kept = await deps.registry.get(runId);
  const progress = await deps.events.progress(runId);
  const usage = progress?.usage ?? null;
  const failed = kept && {
    ...kept,
    state: 'FAILED' as const,
    finished_at: new Date(deps.now()).toISOString(),
    error: report,
    ...(usage ? { usage } : {}),
  };
  if (failed && (await deps.registry.finishOnce(failed, { release: true })) === 'already_finished') return false;
  if (!failed) await deps.registry.release(runId);
  if (failed)
    await deps.objects
      .saveFinished(failed, new Set())
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, pipeline_run_id: runId }, 'run:failure could not be kept in storage'),
      );
  await keepRetryBasis(deps, payload);
  const finishedPipes = progress?.finished_pipes ?? 0;
  const body = payload.callback_urls.length > 0 ? failurePayload(runId, report, usage) : undefined;
  await Promise.all([
    // the id is free since the failure was recorded: a later run of it keeps its events to itself
    deps.events.append(
      runId,
      [runFinishedEvent(runId, deps.now(), finishedPipes, runError(report), 'FAILED', usage)],
      { current_pipe: null, finished_pipes: finishedPipes, ...(usage ? { usage } : {}) },
      { created_at: new Date(payload.created_at).toISOString(), request_id: payload.request_id },
    ),
    body &&
      deps.callbacks.send(
        payload.callback_urls.map((url) => ({ pipeline_run_id: runId, request_id: payload.request_id, url, body })),
      ),
  ]);
  if (countRejection(deps.metrics, 'bullmq', errorFromReport(report))) return true;
  deps.metrics.runsFinished.inc({ state: 'FAILED' });
  deps.metrics.runsFailed.inc({ error_type: report.error_type });
  deps.metrics.runDuration.observe({ state: 'FAILED' }, (deps.now() - payload.created_at) / 1000);
  return true;
}
