/**
 * Runs BullMQ fails without running them: a run job that stalls more than `maxStalledCount` times (its worker process
 * died during the first attempt and again during the quarantined retake) is failed by the next worker that takes it,
 * with a deferred failure, and our processor never runs. This listener gives such a run the same end as any failed
 * run: FAILED with a `RunCrashedError` report naming the pipe that was running when its process last died,
 * failure callbacks, run id released (docs/run-failures.md). Only for a sealed job of the run accepted under its id
 * that has not finished (docs/run-ownership.md#queue-jobs): any other job is left as it is.
 */
import type { Job, Worker } from 'bullmq';
import { RunCrashedError, toErrorReport } from '../../errors/index.js';
import { type JobSeals, QUEUED_RUN_JOB, RUN_QUEUE } from '../queue/index.js';
import { admissionOf } from '../registry/index.js';
import { acceptedRecordOfJob } from '../submission.js';
import { type RunFailureDeps, recordRunFailure } from './run-failure.js';

/** What the listener needs besides what recording a failure does. */
interface StalledRunDeps extends RunFailureDeps {
  /** Base of error `type_uri`s in reports. */
  docsUrl: string;
  /** Verifies the job's seal. */
  seals: JobSeals;
}

async function failStalledRun(job: Job, deps: StalledRunDeps): Promise<void> {
  const parsed = QUEUED_RUN_JOB.safeParse(await deps.seals.open(RUN_QUEUE, job.data));
  if (!parsed.success) return;
  const payload = parsed.data;
  const record = await deps.registry.get(payload.pipeline_run_id);
  if (admissionOf(record, acceptedRecordOfJob(payload, job.id ?? '')) !== 'admitted') return;
  const error = new RunCrashedError(
    `Run '${payload.pipeline_run_id}' was stopped: the process running it died ${job.stalledCounter} times (its worker during the first attempt, then the worker of its quarantined retake). The run is not retried.`,
  );
  const running = (await deps.events.progress(payload.pipeline_run_id))?.current_pipe ?? null;
  const recorded = await recordRunFailure(deps, payload, {
    ...toErrorReport(error, deps.docsUrl),
    pipe_code: running?.pipe_code ?? null,
  });
  // the run's own attempt may have ended it since it was read above: its end stands, and nothing more is done
  if (!recorded) return;
  deps.logger.warn(
    {
      request_id: payload.request_id,
      pipeline_run_id: payload.pipeline_run_id,
      job_id: job.id,
      error_type: error.error_type,
    },
    `run:failed: ${error.message}`,
  );
}

/**
 * Listen for run jobs the worker fails on BullMQ's deferred failure (stalled too often) and record them FAILED.
 * Idempotent: a run whose record is already finished, or finishes while this is recorded, is left alone
 * (docs/run-failures.md#a-run-finishes-once).
 * @param worker - the run worker
 * @param deps - registry, callback queue, metrics, clock, logger, the base of error `type_uri`s and the job seals
 */
export function failRunsStalledTooOften(worker: Worker, deps: StalledRunDeps): void {
  worker.on('failed', (job) => {
    if (!job?.deferredFailure) return;
    failStalledRun(job, deps).catch((error: unknown) =>
      deps.logger.error({ err: error, job_id: job.id }, 'run:failed could not be recorded for a job stalled too often'),
    );
  });
}
