/**
 * Waiting for a child job to finish (docs/fan-out.md): its return value from the queue's completion events (read from
 * before the job was added, or read back from the job on a retake), and the child's result checked out of it; a job
 * that died or returned no child result fails its run with `RunCrashedError`.
 */
import type { Job, Queue, QueueEvents } from 'bullmq';
import { RunCrashedError } from '../../errors/index.js';
import type { FanOutChild } from '../../runtime/index.js';
import { type ChildResult, childResultOf } from './child-job-result.js';
import type { FanOutRun } from './fan-out-run.js';
import { jobFinished } from './job-finished.js';

/**
 * A child's result from its job's return value.
 * @param run - the run the child belongs to (named in the error)
 * @param child - the child (its step path and pipe named in the error)
 * @param value - the job's return value, as it settles
 * @param signal - the fan-out's signal
 * @throws the signal's reason when it aborted; RunCrashedError when the job failed or returned no child result
 */
export async function settledChildResult(
  run: FanOutRun,
  child: FanOutChild,
  value: Promise<unknown>,
  signal: AbortSignal,
): Promise<ChildResult> {
  try {
    const result = childResultOf(await value);
    if (result) return result;
    throw new Error('its result is not a child result');
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new RunCrashedError(
      `The child job of step '${child.params.stepPath}' (pipe '${child.pipeRef}') of run '${run.pipelineRunId}' died instead of finishing: ${(error as Error).message}. Its worker process died twice while running it, or its run's payload was gone.`,
    );
  }
}

/**
 * The return value of a child job. The listener replays the last seconds of events, which may hold the completion of
 * an earlier job of the same id (a failed child removed and added again on a retake): after a completion, the job is
 * read back, and its own return value is taken when it is this one (same `timestamp`) and finished; else the next
 * completion is awaited, once.
 * @param queue - the child queue
 * @param job - the child's job
 * @param events - the queue's listener
 * @param signal - the fan-out's signal: stops the wait, its listener removed
 * @throws the job's failure; the signal's reason once it aborts; QueueUnavailableError when Redis cannot be read
 *   ({@link jobFinished})
 */
export async function childJobReturnValue(
  queue: Queue,
  job: Job,
  events: QueueEvents,
  signal: AbortSignal,
): Promise<unknown> {
  const jobId = job.id ?? '';
  const value: unknown = await jobFinished(queue, jobId, events, { signal });
  const current = await queue.getJob(jobId);
  if (!current) return value;
  if (current.timestamp === job.timestamp && current.finishedOn !== undefined) return current.returnvalue;
  return jobFinished(queue, jobId, events, { signal });
}
