/**
 * Refusing a queue job (docs/run-ownership.md#queue-jobs): a job whose seal does not verify, or a run job that is not
 * the run accepted under its id, or whose run already finished, is ended for good without acting on it — nothing is
 * run, recorded, stored or delivered, and no callback is signed. The refusal is logged and counted
 * (`mthds_queue_jobs_refused_total`), and the job fails with a {@link QueueJobRefusedError} as its reason.
 */
import { type Job, UnrecoverableError } from 'bullmq';
import { QueueJobRefusedError } from '../../errors/index.js';
import type { Logger, Metrics } from '../../observability/index.js';

/**
 * Why a job is refused: its data carries no valid seal; it is not the run accepted under its `pipeline_run_id`; its
 * run already finished.
 */
export type RefusalReason = 'seal' | 'not_accepted' | 'finished';

const WHY: Record<RefusalReason, string> = {
  seal: 'its data carries no valid seal (the service did not add it, or its data was changed since)',
  not_accepted:
    'it is not the run accepted under its pipeline_run_id (no run is kept under the id, or the kept run has another owner, job id, storage_scope or submission)',
  finished: 'its run already finished',
};

/** Where a refusal is told. */
export interface RefusalDeps {
  logger: Logger;
  metrics: Metrics;
}

/**
 * Refuse a job: log and count the refusal.
 * @param deps - logger and metrics
 * @param queue - the queue the job was taken from
 * @param job - the job
 * @param reason - why
 * @returns the error to throw from the processor: BullMQ fails the job with it and never retries it
 */
export function refuseJob(deps: RefusalDeps, queue: string, job: Job, reason: RefusalReason): UnrecoverableError {
  const error = new QueueJobRefusedError(
    `Job '${job.id}' of queue '${queue}' was refused: ${WHY[reason]}. Nothing was run, recorded or delivered.`,
  );
  deps.metrics.queueJobsRefused.inc({ queue, reason });
  deps.logger.warn({ job_id: job.id, queue, reason, error_type: error.error_type }, `job:refused: ${error.message}`);
  return new UnrecoverableError(`${error.error_type}: ${error.message}`);
}
