/**
 * The producer side of the run queue: enqueue a run job, and wait for a job to finish (blocking `/v1/execute` in
 * queue mode). A Redis outage is a 503 `QueueUnavailableError`, never a hang.
 *
 * A run's job id is its `pipeline_run_id` (see {@link runJobId}), so the queue dashboard (Bull Board, `/admin/queues`)
 * lists and finds runs by the id callers know.
 */
import type { EventEmitter } from 'node:events';
import { Queue, QueueEvents } from 'bullmq';
import type { RedisClient } from '../../config/index.js';
import { PipelineManagerAlreadyExistsError, QueueUnavailableError } from '../../errors/index.js';
import { swallowedErrors } from '../../observability/index.js';
import { bullPriority, RUN_PRIORITY } from '../fairness/priority.js';
import { traceEnqueue, withTraceParent } from '../tracing/index.js';
import { JobWaitTimeoutError, jobFinished } from './job-finished.js';
import { QUEUED_RUN_JOB, type QueuedRunJob } from './job-payloads.js';
import type { JobSeals, Sealed } from './job-seals.js';
import { type QueueKeys, RUN_QUEUE } from './queue-keys.js';
import { whenQueueReachable } from './queue-outage.js';

/** Options of the run queue. */
export interface RunQueueOptions {
  /** Producer connection (fails fast). */
  connection: RedisClient;
  /** Blocking connection for completion events (lazily used). */
  eventsConnection: () => RedisClient;
  keys: QueueKeys;
  /** Seals each run job, so workers act only on the runs the API accepted (docs/run-ownership.md#queue-jobs). */
  seals: JobSeals;
  /** Attempts of a run whose failure is retryable. */
  maxAttempts: number;
  /** How long finished jobs stay in BullMQ (dashboards), in seconds. */
  keepSeconds: number;
}

const ENQUEUE_TIMEOUT_MS = 5000;
/**
 * How far back the completion listener first reads the queue's events, in ms: it opens on first use, maybe after the
 * job it waits for was added and finished, and this also covers a clock difference between this host and Redis.
 */
const EVENTS_REPLAY_MS = 60_000;

/**
 * How long the job of an earlier run with the same id may take to finish before a new run's enqueue gives up, in ms.
 */
const EARLIER_JOB_CLOSE_MS = 2000;

/** States of a job that no worker will touch again (`unknown`: removed meanwhile). */
const FINISHED_STATES: ReadonlySet<string> = new Set(['completed', 'failed', 'unknown']);

/** Marks a job id that encodes a run id BullMQ cannot take as it is. */
const ENCODED_ID_MARK = '~';

/**
 * The BullMQ job id of a run: its `pipeline_run_id` as it is, except for the ids BullMQ refuses (a decimal integer such
 * as `42`, an id with a `:`) and those starting with `~`, which become `~` followed by the id in base64url. One run id,
 * one job id, and never the job id of another run id.
 * @param pipelineRunId - the run's id (1–128 characters, spec §8)
 * @returns the job id, also the run's `workflow_id`
 */
export function runJobId(pipelineRunId: string): string {
  const refused =
    `${Number.parseInt(pipelineRunId, 10)}` === pipelineRunId ||
    pipelineRunId.includes(':') ||
    pipelineRunId.startsWith(ENCODED_ID_MARK);
  return refused ? `${ENCODED_ID_MARK}${Buffer.from(pipelineRunId, 'utf8').toString('base64url')}` : pipelineRunId;
}

/**
 * The run id of a run's job id: the inverse of {@link runJobId}.
 * @param jobId - a run job's id
 */
export function runIdOfJob(jobId: string): string {
  return jobId.startsWith(ENCODED_ID_MARK)
    ? Buffer.from(jobId.slice(ENCODED_ID_MARK.length), 'base64url').toString('utf8')
    : jobId;
}

/** Run queue producer. */
export class RunQueue {
  readonly queue: Queue;
  private events: QueueEvents | undefined;

  constructor(private readonly options: RunQueueOptions) {
    this.queue = new Queue(RUN_QUEUE, { connection: options.connection, prefix: options.keys.bullPrefix });
    // its connection's failures, relayed (docs/metrics.md#swallowed-errors); an enqueue reports its own as a 503
    this.queue.on('error', (error) => swallowedErrors.report('run-queue', error));
  }

  /**
   * Enqueue a run under its job id ({@link runJobId}), sealed; resolves once Redis has stored it. The finished job of
   * an earlier run with the same id (its owner reusing the id, kept for the dashboard) is removed first.
   * @param job - the payload, whole or offloaded (validated here)
   * @param options - `fresh`: the run id was generated for this run, so no earlier job is looked for (one Redis round
   *   trip fewer before the acknowledgement); `priority`: the run's ({@link RUN_PRIORITY}, default 5)
   * @throws QueueUnavailableError (503) when Redis does not take the job in time or is unreachable;
   *   PipelineManagerAlreadyExistsError (409) when the job of an earlier run with this id is not finished yet (its
   *   worker is still closing it); any other failure (not an outage) unchanged
   */
  async enqueue(job: QueuedRunJob, options: { fresh?: boolean; priority?: number } = {}): Promise<void> {
    const payload = QUEUED_RUN_JOB.parse(job);
    const jobId = runJobId(payload.pipeline_run_id);
    const priority = options.priority ?? RUN_PRIORITY.default;
    const unavailable = (reason: string) =>
      `The run queue (Redis) did not accept the run: ${reason}. Nothing was enqueued; retry later.`;
    await whenQueueReachable(
      () =>
        traceEnqueue(RUN_QUEUE, { runId: payload.pipeline_run_id, jobId }, async () => {
          let overdue: NodeJS.Timeout | undefined;
          try {
            await Promise.race([
              options.fresh
                ? this.seal(payload).then((sealed) => this.addSealed(jobId, sealed, priority))
                : this.replace(jobId, payload, priority),
              new Promise((_, reject) => {
                overdue = setTimeout(
                  () =>
                    reject(
                      new QueueUnavailableError(unavailable(`no answer within ${ENQUEUE_TIMEOUT_MS} ms`), {
                        retryable: true,
                      }),
                    ),
                  ENQUEUE_TIMEOUT_MS,
                ).unref();
              }),
            ]);
          } finally {
            clearTimeout(overdue);
          }
        }),
      unavailable,
    );
  }

  /**
   * Add a run's job, after removing the finished job an earlier run with the same id left. The earlier run's record
   * is released a moment before its worker closes the job, so a job not finished yet is given
   * {@link EARLIER_JOB_CLOSE_MS} to finish.
   */
  private async replace(jobId: string, payload: QueuedRunJob, priority: number): Promise<void> {
    const earlier = await this.queue.getJob(jobId);
    if (earlier) {
      if (!FINISHED_STATES.has(await earlier.getState())) {
        await jobFinished(this.queue, jobId, this.finishedEvents(), { timeoutMs: EARLIER_JOB_CLOSE_MS }).catch(
          () => undefined,
        );
        if (!FINISHED_STATES.has(await earlier.getState())) {
          throw new PipelineManagerAlreadyExistsError(
            `A run with pipeline_run_id '${payload.pipeline_run_id}' is still being closed by its worker; retry in a moment or use another id.`,
          );
        }
      }
      await earlier.remove();
    }
    await this.addSealed(jobId, await this.seal(payload), priority);
  }

  /**
   * A run job's data: the payload and its seal (docs/run-ownership.md#queue-jobs).
   * @param payload - the payload, whole or offloaded
   * @throws whatever Redis throws when the seal key cannot be read
   */
  seal(payload: QueuedRunJob): Promise<Sealed<QueuedRunJob>> {
    return this.options.seals.seal(RUN_QUEUE, withTraceParent(payload));
  }

  /**
   * Add a run's sealed job (a job already under the id is left as it is).
   * @param jobId - the run's job id ({@link runJobId})
   * @param sealed - the job's data, from {@link seal}
   * @param priority - the run's priority ({@link RUN_PRIORITY})
   * @throws whatever BullMQ throws when Redis does not take it
   */
  async addSealed(jobId: string, sealed: Sealed<QueuedRunJob>, priority: number): Promise<void> {
    await this.queue.add('run', sealed, {
      jobId,
      priority: bullPriority(priority),
      attempts: this.options.maxAttempts,
      backoff: { type: 'exponential', delay: 1000, jitter: 0.5 },
      removeOnComplete: { age: this.options.keepSeconds },
      removeOnFail: { age: this.options.keepSeconds },
    });
  }

  /**
   * Wait until a run's job has finished (completed or failed), was removed (its run was cancelled while it waited:
   * docs/cancellation.md) or the timeout passes.
   * @param pipelineRunId - the run's id
   * @param timeoutMs - bound of the wait
   * @returns true when the job finished or was removed (or there is none), false on timeout (the caller reads the
   *   outcome from the registry)
   */
  async waitUntilFinished(pipelineRunId: string, timeoutMs: number): Promise<boolean> {
    const events = this.finishedEvents();
    const jobId = runJobId(pipelineRunId);
    // BullMQ types only the listener's queue-wide events, not the per-job ones it also emits (`removed:<job id>`);
    // a removed job never finishes, so its removal ends the wait as a failure would (and with it BullMQ's own timer)
    const emitter = events as unknown as EventEmitter;
    const onRemoved = () =>
      emitter.emit(`failed:${jobId}`, { jobId, failedReason: `job ${jobId} was removed before a worker took it` });
    emitter.once(`removed:${jobId}`, onRemoved);
    try {
      await jobFinished(this.queue, jobId, events, { timeoutMs });
      return true;
    } catch (error) {
      return !(error instanceof JobWaitTimeoutError);
    } finally {
      emitter.off(`removed:${jobId}`, onRemoved);
    }
  }

  /**
   * The listener of job completions, opened on first use. It reads the events from {@link EVENTS_REPLAY_MS} back
   * (once), so a completion between a job's add and the listener's first read is not missed.
   */
  private finishedEvents(): QueueEvents {
    if (!this.events) {
      this.events = new QueueEvents(RUN_QUEUE, {
        connection: this.options.eventsConnection(),
        prefix: this.options.keys.bullPrefix,
        lastEventId: `${Date.now() - EVENTS_REPLAY_MS}-0`,
      });
      this.events.on('error', (error) => swallowedErrors.report('run-queue:events', error));
    }
    return this.events;
  }

  /** Counts of jobs by state, for the metrics gauges. */
  counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed');
  }

  /**
   * When the run next in line was added (epoch ms): the first of the waiting and prioritized runs in dispatch order.
   * @returns undefined when no run waits
   */
  async headAddedAt(): Promise<number | undefined> {
    const [head] = await this.queue.getJobs(['prioritized', 'waiting'], 0, 0, true);
    return head?.timestamp;
  }

  /** Close the queue and the events listener. */
  async close(): Promise<void> {
    await Promise.allSettled([this.queue.close(), this.events?.close()]);
  }
}
