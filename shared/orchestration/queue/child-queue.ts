/**
 * Fan-out across workers (docs/fan-out.md): the runtime's fan-out port on BullMQ. The children of a queued run's
 * PipeBatch or PipeParallel become jobs of their own queue ({@link CHILD_QUEUE}), which every worker process consumes;
 * the run's job waits for them, at most `cap` in flight, and gathers their results in input order.
 *
 * A child's job id is deterministic: the run's job id and a digest of the submission (`created_at`, `request_id`) and
 * of the child's step path. A parent retaken after a crash or a retryable failure re-attaches to the children of its
 * earlier attempt: a child that finished well is not run again (its result is used, its usage and events are
 * reported again for the new attempt), one still waiting or running is waited for, one that failed is run again. A
 * run's first attempt has no earlier children: it adds each child without looking for one, and takes its result from
 * the child's completion event, one Redis round trip per child (the add) besides the listener's. The children added
 * in one turn of the event loop (a fan-out's first `cap`, those freed by completions read together) are added in one
 * `Queue.addBulk`: one round trip for all.
 *
 * Waiting uses one `QueueEvents` listener per process, rather than BullMQ flows
 * (`FlowProducer` with `moveToWaitingChildren`): a flow's children are fixed when the flow is added, while a run's
 * children are known only when its controller runs, at most `cap` of them are in flight at once, and the first
 * failure must stop the rest; and a flow parent leaves its worker between steps, which the in-memory run cannot.
 *
 * This module is the queue: adding the children and running a run's fan-out. The run and its children's job ids are in
 * `fan-out-run.ts`; waiting for a child's completion and reading its result, in `child-completion.ts`.
 */
import { type Job, Queue, QueueEvents } from 'bullmq';
import pLimit from 'p-limit';
import type { RedisClient } from '../../config/index.js';
import { errorFromReport } from '../../errors/index.js';
import { swallowedErrors } from '../../observability/index.js';
import type { FanOutChild, FanOutOptions, FanOutOutcome, FanOutPort } from '../../runtime/index.js';
import { withTraceParent } from '../tracing/index.js';
import { childJobReturnValue, settledChildResult } from './child-completion.js';
import { type ChildJob, childJobPayload } from './child-job-payload.js';
import { type ChildResult, childResultOf } from './child-job-result.js';
import { childJobId, type FanOutRun } from './fan-out-run.js';
import { finishedValue } from './job-finished.js';
import type { JobSeals } from './job-seals.js';
import { CHILD_QUEUE, type QueueKeys } from './queue-keys.js';
import { whenQueueReachable } from './queue-outage.js';

/** How long a finished child job is kept, so a parent retaken within it re-attaches to it, in seconds. */
const CHILD_KEEP_SECONDS = 3600;
/** How far back the listener first reads the queue's events, in ms (a clock difference between hosts and Redis). */
const EVENTS_REPLAY_MS = 5000;

/** Options of the child queue. */
export interface ChildQueueOptions {
  /** Producer connection. */
  connection: RedisClient;
  /** Blocking connection of the completion listener. */
  eventsConnection: RedisClient;
  keys: QueueKeys;
  /** Seals each child job: a worker runs only the children a run's own worker added (docs/run-ownership.md). */
  seals: JobSeals;
}

/** A child job waiting for the next `addBulk`. */
interface PendingAdd {
  /** Its payload, checked against `CHILD_JOB`. */
  data: unknown;
  jobId: string;
  resolve(job: Job): void;
  reject(error: unknown): void;
}

/**
 * A child added while its fan-out stopped (a failing sibling, the run's stop: docs/cancellation.md) after the stop
 * dropped the children in flight: drop it too, so no worker runs it.
 * @throws the signal's reason when it aborted
 */
function dropIfStopped(job: Job, signal: AbortSignal): void {
  if (!signal.aborted) return;
  void job.remove().catch(() => undefined);
  throw signal.reason;
}

/** The child queue of one process: adds children, waits for them, and runs the fan-out of each run. */
export class ChildQueue {
  /** The BullMQ queue of child jobs ({@link CHILD_QUEUE}). */
  readonly queue: Queue;
  private events: QueueEvents | undefined;
  /** Children to add at the end of this turn of the event loop. */
  private pending: PendingAdd[] = [];

  constructor(private readonly options: ChildQueueOptions) {
    this.queue = new Queue(CHILD_QUEUE, { connection: options.connection, prefix: options.keys.bullPrefix });
    // its connections' failures, relayed (docs/metrics.md#swallowed-errors)
    this.queue.on('error', (error) => swallowedErrors.report('child-queue', error));
  }

  /** The listener of child completions, opened on the first fan-out (before its first child is added). */
  private finishedEvents(): QueueEvents {
    if (!this.events) {
      this.events = new QueueEvents(CHILD_QUEUE, {
        connection: this.options.eventsConnection,
        prefix: this.options.keys.bullPrefix,
        lastEventId: `${Date.now() - EVENTS_REPLAY_MS}-0`,
      });
      this.events.on('error', (error) => swallowedErrors.report('child-queue:events', error));
    }
    return this.events;
  }

  /**
   * The fan-out port of one run.
   * @param run - the run's ids
   */
  fanOutFor(run: FanOutRun): FanOutPort {
    return { run: (count, childAt, options) => this.fanOut(run, count, childAt, options) };
  }

  private async fanOut(
    run: FanOutRun,
    count: number,
    childAt: (index: number) => FanOutChild,
    options: FanOutOptions,
  ): Promise<FanOutOutcome[]> {
    const events = this.finishedEvents();
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const limit = pLimit(Math.max(1, options.cap));
    const inFlight = new Set<Job>();
    const tasks = Array.from({ length: count }, (_, index) =>
      limit(async (): Promise<FanOutOutcome> => {
        signal.throwIfAborted();
        // a Redis outage while adding or waiting (a failover moving a slot) is retryable: the run's job is retried,
        // and its retake re-attaches to the children already added
        const result = await whenQueueReachable(
          () => this.runChild(run, childAt(index), { events, signal, inFlight }),
          (reason) => `The child queue (Redis) is unreachable: ${reason}.`,
        );
        if (signal.aborted) throw signal.reason;
        options.onEnded(index, result.report);
        if (!result.ok) throw errorFromReport(result.error);
        return result.outcome;
      }),
    );
    try {
      return await Promise.all(tasks);
    } catch (error) {
      stop.abort(error);
      limit.clearQueue();
      // children not taken yet are dropped; those running finish on their worker, their results unread
      for (const job of inFlight) void job.remove().catch(() => undefined);
      throw error;
    }
  }

  /** Add a child (or find the job of an earlier attempt) and wait for its result. */
  private async runChild(
    run: FanOutRun,
    child: FanOutChild,
    { events, signal, inFlight }: { events: QueueEvents; signal: AbortSignal; inFlight: Set<Job> },
  ): Promise<ChildResult> {
    const jobId = childJobId(run, child.params.stepPath);
    if (!run.retake) return this.runFreshChild(run, child, jobId, { events, signal, inFlight });
    let job = await this.queue.getJob(jobId);
    if (job) {
      const state = await job.getState();
      if (state === 'completed') {
        const earlier = childResultOf(job.returnvalue);
        if (earlier?.ok) return earlier;
      }
      if (state === 'completed' || state === 'failed') {
        await job.remove();
        job = undefined;
      }
    }
    if (!job) job = await this.add(run, child, jobId);
    dropIfStopped(job, signal);
    inFlight.add(job);
    try {
      return await settledChildResult(run, child, childJobReturnValue(this.queue, job, events, signal), signal);
    } finally {
      inFlight.delete(job);
    }
  }

  /**
   * Run a child of a run's first attempt: no job of its id can exist yet, so it is added without a lookup, and its
   * listener is set before the add, so its completion event (which carries its return value) cannot be missed and
   * needs no read of the job.
   */
  private async runFreshChild(
    run: FanOutRun,
    child: FanOutChild,
    jobId: string,
    { events, signal, inFlight }: { events: QueueEvents; signal: AbortSignal; inFlight: Set<Job> },
  ): Promise<ChildResult> {
    const finished = new AbortController();
    const value = finishedValue(events, jobId, AbortSignal.any([signal, finished.signal]));
    value.catch(() => undefined);
    try {
      await events.waitUntilReady();
      const job = await this.add(run, child, jobId);
      dropIfStopped(job, signal);
      inFlight.add(job);
      try {
        return await settledChildResult(run, child, value, signal);
      } finally {
        inFlight.delete(job);
      }
    } finally {
      finished.abort();
    }
  }

  /** Add a child's job, sealed, with the others added in this turn of the event loop. */
  private async add(run: FanOutRun, child: FanOutChild, jobId: string): Promise<Job> {
    const payload: ChildJob = {
      pipeline_run_id: run.pipelineRunId,
      request_id: run.requestId,
      run_job_id: run.runJobId,
      created_at: run.createdAt,
      first_attempt: !run.retake,
      child,
    };
    const data = await this.options.seals.seal(CHILD_QUEUE, withTraceParent(childJobPayload(payload)));
    return new Promise<Job>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.addPending());
      this.pending.push({ data, jobId, resolve, reject });
    });
  }

  /** Add the pending children in one `addBulk` (one transaction); each add settles with its job or the failure. */
  private addPending(): void {
    const batch = this.pending.splice(0);
    this.queue
      .addBulk(
        batch.map(({ data, jobId }) => ({
          name: 'child',
          data,
          opts: {
            jobId,
            attempts: 1,
            removeOnComplete: { age: CHILD_KEEP_SECONDS },
            removeOnFail: { age: CHILD_KEEP_SECONDS },
          },
        })),
      )
      .then(
        (jobs) => {
          for (const [index, add] of batch.entries()) add.resolve(jobs[index]!);
        },
        (error: unknown) => {
          for (const add of batch) add.reject(error);
        },
      );
  }

  /** Close the queue and the listener. */
  async close(): Promise<void> {
    await Promise.allSettled([this.queue.close(), this.events?.close()]);
  }
}
