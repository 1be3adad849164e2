/**
 * The diagnostics pool: the isolated worker threads in which the CPU-heavy work of the diagnostic and tooling routes
 * runs (validate and its dry run, resolve, codegen, build inputs/output/runner, lint, format) and the static verdict
 * of a run's bundles, so that no request can hold the event loop (docs/isolation.md#diagnostics-pool).
 *
 * Bounds come from the `COMPUTE_*` settings: threads, wait queue and its deadline (503 `ServerBusyError` with
 * `Retry-After`), time budget and heap of one request (422 `ComputeBudgetExceededError` naming the setting).
 *
 * @see spec §7 (errors), §8 (limits)
 */
import { IsolatedPool, type PoolOccupancy } from '../../shared/compute/index.js';
import type { ComputeSettings } from '../../shared/config/index.js';
import { ComputeBudgetExceededError } from '../../shared/errors/index.js';
import { siblingModule } from '../../shared/lifecycle/index.js';
import type { Metrics } from '../../shared/observability/index.js';
import type { THREAD_OPERATIONS, ThreadOperation } from './thread-operations.js';

/**
 * The young generation of a diagnostics thread, in MiB (64 MiB semi-spaces): a large validate allocates mostly
 * short-lived data, and a 2,000-pipe `/v1/validate` took about 15 % less time with it than with 32 MiB
 * (docs/isolation.md
 * "Memory of a warm thread").
 */
const DIAGNOSTICS_YOUNG_GENERATION_MIB = 192;
/** Seconds a busy answer asks the caller to wait: about the time a typical diagnostic request holds a thread. */
const RETRY_AFTER_SECONDS = 5;

/** The pool's name in metrics (`mthds_compute_pool_tasks`, `mthds_compute_refusals_total`). */
const POOL_NAME = 'diagnostics';

type Operations = typeof THREAD_OPERATIONS;

/** The input of an operation. */
export type OperationInput<K extends ThreadOperation> = Parameters<Operations[K]>[0];

/** The value of an operation. */
export type OperationOutput<K extends ThreadOperation> = Awaited<ReturnType<Operations[K]>>;

/** How a diagnostics pool is built. */
export interface DiagnosticsPoolOptions {
  /** The `COMPUTE_*` settings. */
  compute: ComputeSettings;
  /** Where occupancy and refusals are reported; none by default. */
  metrics?: Metrics;
  /**
   * Keep `compute.warmThreads` threads started and alive (the server); by default threads start on demand and
   * leave after `compute.idleTimeoutMs` idle (tests, embedding).
   */
  keepWarm?: boolean;
}

/** The diagnostics pool of one API process. */
export class DiagnosticsPool {
  private readonly pool: IsolatedPool;
  /** Threads {@link warm} loads: the warm ones of a kept-warm pool, every thread otherwise. */
  private readonly warmCount: number;
  /** Set once {@link close} is called. */
  private closing = false;

  /**
   * @param options - settings, metrics and warmth
   */
  constructor(options: DiagnosticsPoolOptions) {
    const { compute, metrics } = options;
    this.warmCount = options.keepWarm ? compute.warmThreads : compute.threads;
    this.pool = new IsolatedPool({
      label: 'compute',
      filename: siblingModule('./diagnostics-thread', import.meta.url),
      maxThreads: compute.threads,
      minThreads: options.keepWarm ? compute.warmThreads : 0,
      maxQueue: compute.queueMax,
      queueDeadlineMs: compute.queueDeadlineMs,
      timeoutMs: compute.timeoutMs,
      timeoutSetting: 'COMPUTE_TIMEOUT_MS',
      heapMib: compute.heapMib,
      heapSetting: 'COMPUTE_HEAP_MIB',
      youngGenerationMib: DIAGNOSTICS_YOUNG_GENERATION_MIB,
      idleTimeoutMs: compute.idleTimeoutMs,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      budgetError: (limit) =>
        new ComputeBudgetExceededError(
          `The request needed more than ${limit.kind === 'time' ? `${limit.value} ms of computation` : `${limit.value} MiB of memory`} (${limit.setting}) and was stopped; send a smaller or simpler request.`,
        ),
      ...(metrics ? { onRefusal: (reason) => metrics.computeRefusals.inc({ pool: POOL_NAME, reason }) } : {}),
    });
    metrics?.watchComputePool(POOL_NAME, () => this.pool.occupancy());
  }

  /**
   * Run one operation in a thread.
   * @param op - the operation (`thread-operations.ts`)
   * @param input - its structured-clonable input
   * @param signal - aborts it (the client went away); its thread is stopped if it runs
   * @param transfer - buffers of the input moved to the thread instead of copied (unusable here afterwards)
   * @returns the operation's value
   * @throws the operation's typed error, rebuilt with its exact problem document (e.g. `ValidateBundleError` 422);
   *   ServerBusyError (503, `Retry-After`) when the threads and the wait queue are full or the wait outlived
   *   `COMPUTE_QUEUE_DEADLINE_MS`; ComputeBudgetExceededError (422) past `COMPUTE_TIMEOUT_MS` or `COMPUTE_HEAP_MIB`
   */
  run<K extends ThreadOperation>(
    op: K,
    input: OperationInput<K>,
    signal?: AbortSignal,
    transfer?: readonly ArrayBuffer[],
  ): Promise<OperationOutput<K>> {
    return this.pool.run<OperationOutput<K>>(op, input, {
      ...(signal ? { signal } : {}),
      ...(transfer ? { transfer } : {}),
    });
  }

  /**
   * Load each thread's lazy dependencies (the formatter) ahead of the first request: one warm-up per thread, at once
   * (`COMPUTE_WARM_THREADS` of them on a kept-warm pool, none when it is 0). A warm-up cut short by {@link close}
   * (a shutdown during boot) just ends.
   * @throws whatever a thread's warm-up throws while the pool is open
   */
  async warm(): Promise<void> {
    try {
      await Promise.all(Array.from({ length: this.warmCount }, () => this.run('warm', undefined)));
    } catch (error) {
      if (!this.closing) throw error;
    }
  }

  /** Threads alive, tasks running and tasks waiting. */
  occupancy(): PoolOccupancy {
    return this.pool.occupancy();
  }

  /** Stop every thread; tasks in flight are rejected. */
  async close(): Promise<void> {
    this.closing = true;
    await this.pool.close();
  }
}
