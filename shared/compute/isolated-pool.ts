/**
 * A bounded pool of worker threads for work on caller input that must never stall or crash the process: template
 * renders, validation and dry runs, and the other CPU-heavy diagnostics (docs/isolation.md).
 *
 * Every bound is hard — none relies on the task cooperating:
 * - time: a task running longer than its budget has its thread terminated (piscina stops a running task's thread
 *   when its abort signal fires);
 * - memory: each thread has V8 `resourceLimits`, so a task that outgrows its heap kills its thread, not the process;
 * - queue: at most `maxQueue` tasks wait for a thread, and none waits longer than `queueDeadlineMs`; past either,
 *   the caller gets {@link ServerBusyError} (503, `Retry-After`).
 * A stopped thread is replaced on demand. Threads leave after `idleTimeoutMs` without work and never keep the process
 * alive. A thread that fails with no task of its own to fail is counted and logged at the site
 * `compute-pool:<label>` (docs/metrics.md#swallowed-errors), never left to crash the process.
 */
import { Piscina } from 'piscina';
import { ComputeBudgetExceededError, errorFromReport, type MthdsError, ServerBusyError } from '../errors/index.js';
import { swallowedErrors } from '../observability/index.js';
import { READY_OP, STARTED_BYTES, startStamp, type TaskAnswer, type TaskMessage } from './task-protocol.js';

/** A limit a task ran into. */
export interface ExceededLimit {
  kind: 'time' | 'memory';
  /** The limit's value: ms for time, MiB for memory. */
  value: number;
  /** The setting that governs it (e.g. `COMPUTE_TIMEOUT_MS`). */
  setting: string;
}

/** Why a pool refused or stopped a task: queue full, wait past the deadline, time budget, heap. */
export type RefusalReason = 'queue_full' | 'queue_deadline' | 'time' | 'memory';

/** How a pool is built. */
export interface IsolatedPoolOptions {
  /** What the pool runs, for messages (e.g. `template render`, `validation`). */
  label: string;
  /** The worker module; its default export is built with `isolatedTaskHandler`. */
  filename: URL;
  /** Threads at most (≥ 1). */
  maxThreads: number;
  /** Threads started with the pool and kept alive (replaced when stopped), at most `maxThreads`; 0 by default. */
  minThreads?: number;
  /** Tasks that may wait for a thread. */
  maxQueue: number;
  /** Longest a task may wait for a thread, in ms. */
  queueDeadlineMs: number;
  /** Wall-clock budget of one task once it runs, in ms, and the setting that governs it. */
  timeoutMs: number;
  timeoutSetting: string;
  /** Heap of one thread (V8 old generation), in MiB, and the setting that governs it. */
  heapMib: number;
  heapSetting: string;
  /**
   * The young generation of a thread, in MiB (V8 `maxYoungGenerationSizeMb`, three times a semi-space); 32 by default.
   * A larger one means fewer scavenges for tasks that allocate much short-lived data, at the cost of more memory
   * committed while such a task runs.
   */
  youngGenerationMib?: number;
  /** How long an idle thread stays, in ms. */
  idleTimeoutMs: number;
  /** Seconds a busy answer asks the caller to wait. */
  retryAfterSeconds: number;
  /**
   * The error a task over a limit is reported with; a {@link ComputeBudgetExceededError} naming the limit by default.
   * @param limit - the limit the task ran into
   */
  budgetError?: (limit: ExceededLimit) => MthdsError;
  /**
   * Called each time the pool refuses a task (503) or stops one at a limit (422), for metrics.
   * @param reason - which bound was hit
   */
  onRefusal?: (reason: RefusalReason) => void;
}

/** Per-call options of {@link IsolatedPool.run}. */
export interface RunOptions {
  /**
   * Abandons the task (the client went away): the caller is answered at once with the signal's reason; a task still
   * waiting for a thread is dropped, and a running one may finish within {@link ABANDON_GRACE_MS} (its value
   * discarded) before its thread is stopped, so a short task does not cost the pool a warm thread.
   */
  signal?: AbortSignal;
  /**
   * Buffers of the input moved to the thread instead of copied (they are unusable here afterwards): a copy of a
   * 100 MiB body would hold the event loop for tens of ms.
   */
  transfer?: readonly ArrayBuffer[];
}

/**
 * How long an abandoned running task may go on before its thread is stopped, in ms. Stopping a thread throws away
 * what it loaded (the formatter alone takes seconds to load again), so most abandoned tasks are better left to end.
 */
export const ABANDON_GRACE_MS = 1000;

/** Occupancy of a pool, for metrics and readiness. */
export interface PoolOccupancy {
  /** Threads alive. */
  threads: number;
  /** Tasks running in a thread. */
  busy: number;
  /** Tasks waiting for a thread. */
  queued: number;
}

/** Young-generation share of a thread's heap when the pool names none, in MiB. */
const YOUNG_GENERATION_MIB = 32;
/** Stack of one thread, in MiB: deep enough for the parsers, shallow enough to fail fast. */
const STACK_MIB = 4;

/** A bounded pool of isolated worker threads. */
export class IsolatedPool {
  private readonly pool: Piscina;
  /** Tasks submitted and not yet answered: at most `maxThreads + maxQueue` (piscina's own `maxQueue` does not count
   * tasks that carry an abort signal, and every task here does). */
  private inFlight = 0;

  /**
   * @param options - threads, queue, budgets and the worker module
   */
  constructor(private readonly options: IsolatedPoolOptions) {
    this.pool = new Piscina({
      filename: options.filename.href,
      minThreads: Math.min(options.minThreads ?? 0, Math.max(1, options.maxThreads)),
      maxThreads: Math.max(1, options.maxThreads),
      idleTimeout: options.idleTimeoutMs,
      resourceLimits: {
        maxOldGenerationSizeMb: options.heapMib,
        maxYoungGenerationSizeMb: options.youngGenerationMib ?? YOUNG_GENERATION_MIB,
        stackSizeMb: STACK_MIB,
      },
    });
    // piscina emits 'error' when a thread fails with no task to reject; unheard, it would end the process
    const site = `compute-pool:${options.label.toLowerCase().replace(/\s+/g, '-')}`;
    this.pool.on('error', (error: unknown) => swallowedErrors.report(site, error));
  }

  /**
   * Run one operation in a thread.
   * @param op - the operation's name in the worker module's table
   * @param input - its input (structured-clonable)
   * @param options - an abort signal
   * @returns the operation's value
   * @throws the operation's own error, rebuilt from its report (same `error_type`, status and detail);
   *   {@link ServerBusyError} (503) when `maxThreads + maxQueue` tasks are already in flight or the wait for a thread
   * outlived `queueDeadlineMs`;
   *   the pool's budget error (by default {@link ComputeBudgetExceededError}, 422) when the task outlived its time
   *   budget or its heap; the signal's reason when the caller aborted
   */
  async run<T>(op: string, input: unknown, options: RunOptions = {}): Promise<T> {
    if (this.inFlight >= Math.max(1, this.options.maxThreads) + this.options.maxQueue) throw this.busy('full');
    const started = new SharedArrayBuffer(STARTED_BYTES);
    const stamp = startStamp(started);
    const watchdog = new Watchdog(stamp, this.options.timeoutMs, this.options.queueDeadlineMs);
    const abandon = new AbortController();
    const message: TaskMessage = { op, input, started };
    this.inFlight += 1;
    let grace: NodeJS.Timeout | undefined;
    const task = (
      this.pool.run(message, {
        signal: AbortSignal.any([watchdog.signal, abandon.signal]),
        ...(options.transfer ? { transferList: [...options.transfer] } : {}),
      }) as Promise<TaskAnswer>
    )
      .catch((error: unknown) => {
        // a task that started only fails when its thread stopped (a limit, or abandoned past the grace)
        if (Atomics.load(stamp.flag, 0) === 1) this.replaceStoppedThread();
        throw error;
      })
      .finally(() => {
        this.inFlight -= 1;
        watchdog.stop();
        clearTimeout(grace);
      });
    const caller = options.signal;
    const abandoned =
      caller &&
      new Promise<never>((_resolve, reject) => {
        const onAbort = () => {
          if (Atomics.load(stamp.flag, 0) === 1) {
            grace = setTimeout(() => abandon.abort(caller.reason), ABANDON_GRACE_MS);
            grace.unref();
          } else abandon.abort(caller.reason);
          reject(caller.reason);
        };
        if (caller.aborted) onAbort();
        else caller.addEventListener('abort', onAbort, { once: true });
        void task.finally(() => caller.removeEventListener('abort', onAbort)).catch(() => undefined);
      });
    let answer: TaskAnswer;
    try {
      answer = await (abandoned ? Promise.race([task, abandoned]) : task);
    } catch (error) {
      throw this.failure(error, watchdog.verdict, caller);
    }
    if (answer.ok) return answer.value as T;
    if ('limit' in answer)
      throw this.budgetError({ kind: 'memory', value: this.options.heapMib, setting: this.options.heapSetting });
    throw errorFromReport(answer.report);
  }

  /** Start a thread in place of one that was stopped, so the tasks queued behind it run now. */
  private replaceStoppedThread(): void {
    const started = new SharedArrayBuffer(STARTED_BYTES);
    this.pool.run({ op: READY_OP, input: null, started } satisfies TaskMessage).catch(() => undefined);
  }

  /** Threads alive and tasks waiting. */
  occupancy(): PoolOccupancy {
    const threads = this.pool.threads.length;
    const busy = Math.min(this.inFlight, threads);
    return { threads, busy, queued: this.inFlight - busy };
  }

  /** Stop every thread (pending tasks are rejected). */
  async close(): Promise<void> {
    await this.pool.destroy();
  }

  private failure(error: unknown, verdict: Watchdog['verdict'], callerSignal: AbortSignal | undefined): unknown {
    if (verdict === 'queue') return this.busy('deadline');
    if (verdict === 'time')
      return this.budgetError({ kind: 'time', value: this.options.timeoutMs, setting: this.options.timeoutSetting });
    if ((error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return this.budgetError({ kind: 'memory', value: this.options.heapMib, setting: this.options.heapSetting });
    }
    if (callerSignal?.aborted) return callerSignal.reason;
    return error;
  }

  private busy(why: 'full' | 'deadline'): ServerBusyError {
    this.options.onRefusal?.(why === 'full' ? 'queue_full' : 'queue_deadline');
    const reason =
      why === 'deadline'
        ? `no ${this.options.label} thread came free within ${this.options.queueDeadlineMs} ms`
        : `every ${this.options.label} thread is taken and its wait queue (${this.options.maxQueue}) is full`;
    return new ServerBusyError(`The server is busy: ${reason}. Retry in ${this.options.retryAfterSeconds} s.`, {
      retryable: true,
      retryAfterSeconds: this.options.retryAfterSeconds,
    });
  }

  private budgetError(limit: ExceededLimit): MthdsError {
    this.options.onRefusal?.(limit.kind);
    if (this.options.budgetError) return this.options.budgetError(limit);
    const what = limit.kind === 'time' ? `more than ${limit.value} ms` : `more than ${limit.value} MiB of memory`;
    return new ComputeBudgetExceededError(
      `The ${this.options.label} needed ${what} (${limit.setting}) and was stopped; send a smaller or simpler request.`,
    );
  }
}

/**
 * The timer of one task: fires `queue` when the task waited too long for a thread, `time` when it ran past its
 * budget. It wakes only when a limit could have passed (the thread's start is read from the shared stamp).
 */
class Watchdog {
  private readonly controller = new AbortController();
  private readonly queuedAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  verdict: 'queue' | 'time' | undefined;

  constructor(
    private readonly stamp: { flag: Int32Array; time: Float64Array },
    private readonly timeoutMs: number,
    private readonly queueDeadlineMs: number,
  ) {
    this.arm(Math.min(timeoutMs, queueDeadlineMs));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => this.check(), Math.max(1, delayMs));
    this.timer.unref();
  }

  private check(): void {
    const now = Date.now();
    if (Atomics.load(this.stamp.flag, 0) === 1) {
      const left = this.stamp.time[0]! + this.timeoutMs - now;
      if (left > 0) this.arm(left);
      else this.fire('time');
      return;
    }
    const waitLeft = this.queuedAt + this.queueDeadlineMs - now;
    if (waitLeft <= 0) this.fire('queue');
    else this.arm(Math.min(waitLeft, this.timeoutMs));
  }

  private fire(verdict: 'queue' | 'time'): void {
    this.verdict = verdict;
    this.controller.abort(new Error(`isolated task over its ${verdict} limit`));
  }
}
