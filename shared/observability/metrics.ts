/**
 * Prometheus metrics (prom-client): HTTP requests, runs (finished apart from rejected by a caller error), queue depths,
 * callback deliveries, inference calls and tokens, the GenAI client histograms (docs/tracing.md#genai-metrics), and the errors handled by carrying on (`swallowed-errors.ts`: one
 * counter per process, registered in every registry). One {@link Metrics} per process; the API serves it at
 * `/metrics`, a worker on its own port when configured.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { swallowedErrorsCounter } from './swallowed-errors.js';

/** Something that can count jobs by state. */
export type JobCounter = () => Promise<Record<string, number>>;

/** Reads when the job next in line of a queue was added (epoch ms), undefined when none waits. */
export type QueueHeadReader = () => Promise<number | undefined>;

/** Reads a worker-thread pool's occupancy: threads alive, tasks running, tasks waiting. */
export type PoolOccupancyReader = () => { threads: number; busy: number; queued: number };

/** The metrics of one process. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'mthds_http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'mthds_http_request_duration_seconds',
    help: 'HTTP request duration in seconds',
    labelNames: ['route', 'method'] as const,
    registers: [this.registry],
  });
  readonly httpConnectionsRefused = new Counter({
    name: 'mthds_http_connections_refused_total',
    help: 'Connections the API closed at a connection cap, by reason (per_ip, total: new ones; evicted: older ones that had sent no request)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly runsStarted = new Counter({
    name: 'mthds_runs_started_total',
    help: 'Runs accepted, by orchestration mode and delivery',
    labelNames: ['mode', 'delivery'] as const,
    registers: [this.registry],
  });
  readonly runsGated = new Counter({
    name: 'mthds_runs_gated_total',
    help: 'Runs started in queue mode, by what the dispatch gate did with them: queued at once, parked in their organization line, or refused (line full)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly runsFinished = new Counter({
    name: 'mthds_runs_finished_total',
    help: 'Runs finished, by final state (FAILED: a server-side or provider failure; caller errors are rejected runs; CANCELLED, TIMED_OUT: stopped runs)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  readonly runsRejected = new Counter({
    name: 'mthds_runs_rejected_total',
    help: 'Runs refused, or ended, by a caller error (a 4xx other than 429), by orchestration mode and error_type; never counted as finished',
    labelNames: ['mode', 'error_type'] as const,
    registers: [this.registry],
  });
  readonly runDuration = new Histogram({
    name: 'mthds_run_duration_seconds',
    help: 'Run duration in seconds, by final state',
    labelNames: ['state'] as const,
    buckets: [0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600],
    registers: [this.registry],
  });
  readonly runsFailed = new Counter({
    name: 'mthds_runs_failed_total',
    help: 'Queued runs that ended FAILED (counted in mthds_runs_finished_total too), by error_type',
    labelNames: ['error_type'] as const,
    registers: [this.registry],
  });
  readonly pipeDuration = new Histogram({
    name: 'mthds_pipe_duration_seconds',
    help: 'Duration of each pipe run in seconds (steps replayed from a checkpoint excluded), by pipe type and outcome (finished, failed)',
    labelNames: ['pipe_type', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  readonly jobsStalled = new Counter({
    name: 'mthds_queue_jobs_stalled_total',
    help: 'Jobs BullMQ found stalled (their worker died or hung past its lock) and took back, by queue',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });
  readonly workerConcurrency = new Gauge({
    name: 'mthds_worker_concurrency',
    help: 'Jobs a worker process takes at once, by queue (its capacity: saturation is active jobs over the sum of it)',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });
  readonly stepsReplayed = new Counter({
    name: 'mthds_run_steps_replayed_total',
    help: 'Pipe steps of retaken runs restored from their step checkpoints instead of running (no inference call made)',
    registers: [this.registry],
  });
  readonly callbackDeliveries = new Counter({
    name: 'mthds_callback_deliveries_total',
    help: 'Callback delivery attempts, by outcome (delivered, retried, dead_lettered)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly queueJobsRefused = new Counter({
    name: 'mthds_queue_jobs_refused_total',
    help: 'Queue jobs a worker refused to act on, by queue and reason (seal, not_accepted, finished)',
    labelNames: ['queue', 'reason'] as const,
    registers: [this.registry],
  });
  readonly inferenceCalls = new Counter({
    name: 'mthds_inference_calls_total',
    help: 'Inference calls, by backend, kind and outcome',
    labelNames: ['backend', 'kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly inferenceTokens = new Counter({
    name: 'mthds_inference_tokens_total',
    help: 'Inference tokens, by backend and direction',
    labelNames: ['backend', 'direction'] as const,
    registers: [this.registry],
  });
  readonly inferenceRateLimitWait = new Histogram({
    name: 'mthds_inference_rate_limit_wait_seconds',
    help: 'Time an inference call waited for its provider rate limits or a paused backend before it was made, by backend and model',
    labelNames: ['backend', 'model'] as const,
    buckets: [0, 0.05, 0.25, 1, 5, 15, 30, 60, 120, 300],
    registers: [this.registry],
  });
  readonly inferenceThrottledCalls = new Counter({
    name: 'mthds_inference_throttled_calls_total',
    help: 'Inference calls that had to wait for a rate limit (reason: requests, tokens, concurrency, paused), by backend, model, reason and outcome (admitted, timed_out)',
    labelNames: ['backend', 'model', 'reason', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly inferenceBackendPauses = new Counter({
    name: 'mthds_inference_backend_pauses_total',
    help: 'Backend pauses this process set after a provider 429 with Retry-After, by backend',
    labelNames: ['backend'] as const,
    registers: [this.registry],
  });
  readonly inferenceBackendPauseSeconds = new Counter({
    name: 'mthds_inference_backend_pause_seconds_total',
    help: 'Seconds of backend pauses this process set after a provider 429 with Retry-After, by backend',
    labelNames: ['backend'] as const,
    registers: [this.registry],
  });
  readonly inferenceCost = new Counter({
    name: 'mthds_inference_cost_usd_total',
    help: 'Cost of inference calls in USD, by serving backend and model handle (calls whose model has no price are not counted)',
    labelNames: ['backend', 'model'] as const,
    registers: [this.registry],
  });
  /**
   * `gen_ai.client.token.usage` of the OpenTelemetry GenAI conventions in Prometheus naming: tokens of each inference
   * call, by `gen_ai_token_type` (`input`, `output`), provider and model (the provider's model name), with the
   * conventions' buckets.
   */
  readonly genAiTokenUsage = new Histogram({
    name: 'gen_ai_client_token_usage',
    help: 'Tokens used by each inference call (GenAI semantic conventions), by token type, operation, provider and model',
    labelNames: ['gen_ai_token_type', 'gen_ai_operation_name', 'gen_ai_provider_name', 'gen_ai_request_model'] as const,
    buckets: [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864],
    registers: [this.registry],
  });
  /**
   * `gen_ai.client.operation.duration` in Prometheus naming: seconds of each inference call, rate-limit waits
   * included, by operation, provider, model and `error_type` (empty on success), with the conventions' buckets.
   */
  readonly genAiOperationDuration = new Histogram({
    name: 'gen_ai_client_operation_duration_seconds',
    help: 'Duration of each inference call in seconds (GenAI semantic conventions), by operation, provider, model and error type',
    labelNames: ['gen_ai_operation_name', 'gen_ai_provider_name', 'gen_ai_request_model', 'error_type'] as const,
    buckets: [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92],
    registers: [this.registry],
  });
  readonly methodFetches = new Counter({
    name: 'mthds_method_fetches_total',
    help: 'method_ref package fetches, by outcome (cache_hit, cloned, failed); dependencies count as fetches',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly methodCacheEvictions = new Counter({
    name: 'mthds_method_cache_evictions_total',
    help: 'Clones evicted from the method clone cache, on insert and by the periodic sweep',
    registers: [this.registry],
  });
  readonly computeRefusals = new Counter({
    name: 'mthds_compute_refusals_total',
    help: 'Tasks a worker-thread pool refused (503: queue_full, queue_deadline) or stopped at a limit (422: time, memory), by pool and reason',
    labelNames: ['pool', 'reason'] as const,
    registers: [this.registry],
  });
  private readonly queues = new Map<string, JobCounter>();
  private readonly queueAges = new Map<string, QueueHeadReader>();
  private readonly pools = new Map<string, PoolOccupancyReader>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'mthds_process_' });
    this.registry.registerMetric(swallowedErrorsCounter);
    const queues = this.queues;
    new Gauge({
      name: 'mthds_queue_jobs',
      help: 'Jobs in each queue, by state (failed callback jobs are dead-lettered)',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [queue, counts] of queues) {
          const byState = await counts().catch(() => ({}) as Record<string, number>);
          for (const [state, value] of Object.entries(byState)) this.set({ queue, state }, value);
        }
      },
    });
    const queueAges = this.queueAges;
    new Gauge({
      name: 'mthds_queue_oldest_waiting_seconds',
      help: 'Age in seconds of the job next in line of each queue (0 when none waits): how long the backlog has been waiting',
      labelNames: ['queue'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [queue, read] of queueAges) {
          const addedAt = await read().catch(() => undefined);
          this.set({ queue }, addedAt === undefined ? 0 : Math.max(0, (Date.now() - addedAt) / 1000));
        }
      },
    });
    const pools = this.pools;
    new Gauge({
      name: 'mthds_compute_pool',
      help: 'Occupancy of each worker-thread pool: threads alive, tasks running (busy), tasks waiting for a thread (queued)',
      labelNames: ['pool', 'state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [pool, read] of pools) {
          const { threads, busy, queued } = read();
          this.set({ pool, state: 'threads' }, threads);
          this.set({ pool, state: 'busy' }, busy);
          this.set({ pool, state: 'queued' }, queued);
        }
      },
    });
  }

  /**
   * Report a queue's depth in `mthds_queue_jobs`.
   * @param name - queue name
   * @param counts - reads its job counts at scrape time
   */
  watchQueue(name: string, counts: JobCounter): void {
    this.queues.set(name, counts);
  }

  /**
   * Report the age of a queue's head in `mthds_queue_oldest_waiting_seconds`.
   * @param name - queue name
   * @param head - reads when its next job was added, at scrape time
   */
  watchQueueAge(name: string, head: QueueHeadReader): void {
    this.queueAges.set(name, head);
  }

  /**
   * Report a worker-thread pool's occupancy in `mthds_compute_pool`.
   * @param name - pool name (e.g. `diagnostics`)
   * @param occupancy - reads it at scrape time
   */
  watchComputePool(name: string, occupancy: PoolOccupancyReader): void {
    this.pools.set(name, occupancy);
  }
}
