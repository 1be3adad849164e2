/**
 * Deployment settings read from the environment once at start-up (spec §1.1), validated into one typed object.
 *
 * {@link SETTINGS_TABLE} is the one place a variable is written: its name, its schema (which holds its default) and
 * where its value lands in {@link Settings}; the `Settings` type and {@link loadSettings} are derived from it, and a
 * test
 * checks README.md#configuration against it. To add a variable, add one `env(...)` entry where its setting belongs
 * and one README row.
 *
 * An invalid value refuses to boot with a message that names the variable. `COMPLETION_CALLBACK_SECRET` is
 * deliberately absent: the spec says it is read lazily, only when a signature is computed.
 *
 * @see spec §1.1, §5 (auth), §7.5 (disclosure), README.md#configuration
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { type RedisTarget, redisTarget } from './redis-target.js';

/**
 * One environment variable: its name, its schema (with its default when unset), and how its parsed value becomes the
 * setting (a unit conversion, or the value as is).
 */
class Variable<T> {
  /**
   * @param name - the environment variable
   * @param schema - validates the raw string (or its absence) and gives the parsed value
   * @param read - the setting, from the parsed values of every variable keyed by name
   */
  constructor(
    readonly name: string,
    readonly schema: z.ZodType,
    readonly read: (parsed: Readonly<Record<string, unknown>>) => T,
  ) {}
}

/** A variable whose parsed value is the setting as is, or converted by `convert` (e.g. MiB to bytes). */
function env<S extends z.ZodType>(name: string, schema: S): Variable<z.output<S>>;
function env<S extends z.ZodType, T>(name: string, schema: S, convert: (value: z.output<S>) => T): Variable<T>;
function env<S extends z.ZodType, T>(name: string, schema: S, convert?: (value: z.output<S>) => T) {
  // The cast is safe: `parsed` is the output of a schema object holding `schema` under `name`.
  const value = (parsed: Readonly<Record<string, unknown>>) => parsed[name] as z.output<S>;
  return new Variable<unknown>(name, schema, convert ? (parsed) => convert(value(parsed)) : value);
}

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const nonNegativeInt = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);
const portNumber = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const optionalSecret = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));
const trimmedLower = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? fallback : value.trim().toLowerCase()))
    .pipe(z.enum(values));
const booleanFlag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? String(fallback) : value.trim().toLowerCase()))
    .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no']))
    .transform((value) => value === 'true' || value === '1' || value === 'yes');
const httpUrl = /^https?:\/\//;
const KIB = 1024;
const MIB = 1024 * 1024;

/**
 * Every variable {@link loadSettings} reads, placed where its setting lives in {@link Settings}. Units are in the names
 * (MiB, KiB, hours, ms). Cross-variable rules (required secrets, heap against body size…) are in `finish` below.
 */
const SETTINGS_TABLE = {
  port: env('PORT', portNumber(8081)),
  host: env('HOST', z.string().default('0.0.0.0')),
  /**
   * Connection caps and time bounds of the API's HTTP server (docs/limits.md#connections), all times in ms: most
   * connections open at once (one more is closed at once), most from one client address (0: no per-address cap),
   * longest wait for a request's headers and for the whole request (answered 408 and closed past them), and how long
   * an idle keep-alive connection is kept.
   */
  http: {
    maxConnections: env('HTTP_MAX_CONNECTIONS', positiveInt(4096)),
    maxConnectionsPerIp: env('HTTP_MAX_CONNECTIONS_PER_IP', nonNegativeInt(256)),
    headersTimeoutMs: env('HTTP_HEADERS_TIMEOUT_MS', positiveInt(10000)),
    requestTimeoutMs: env('HTTP_REQUEST_TIMEOUT_MS', positiveInt(300000)),
    keepAliveTimeoutMs: env('HTTP_KEEP_ALIVE_TIMEOUT_MS', positiveInt(5000)),
  },
  logLevel: env('LOG_LEVEL', trimmedLower(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info')),
  /** How callers are authenticated (spec §5); {@link Settings} holds it as an {@link AuthSettings}. */
  auth: {
    mode: env('AUTH_MODE', trimmedLower(['none', 'api_key', 'jwt'], 'none')),
    apiKey: env('API_KEY', optionalSecret),
    jwtSecret: env('JWT_SECRET_KEY', optionalSecret),
  },
  /**
   * `OPERATOR_API_KEY`: the operator credential of `/admin/*` and `/metrics`, distinct from every tenant credential
   * (docs/run-ownership.md#operators); unset, only a `jwt` token with the `operator` role is one, and with
   * `AUTH_MODE=none` the operator routes are open like every route.
   */
  operatorApiKey: env('OPERATOR_API_KEY', optionalSecret),
  serviceEnv: env('SERVICE_ENV', z.string().trim().min(1).default('dev')),
  gatewayApiKey: env('SERVICE_GATEWAY_API_KEY', optionalSecret),
  maxRequestBodyMib: env('MAX_REQUEST_BODY_MIB', positiveInt(100)),
  /** Largest `.mthds` text accepted inline (lint and format `content`), in KiB of UTF-8 (docs/limits.md). */
  maxMthdsFileKib: env('MAX_MTHDS_FILE_KIB', positiveInt(1024)),
  /**
   * Deepest nesting of arrays and objects in a JSON request body (`{}` is depth 1); a deeper body is a 422 before any
   * handler runs (spec §8, docs/limits.md).
   */
  maxJsonDepth: env('MAX_JSON_DEPTH', positiveInt(64)),
  /**
   * Most values a JSON request body may hold: each string (object keys included), number, `true`, `false`, `null`,
   * array and object counts one; a body holding more is a 422 before it is parsed (docs/limits.md#json-values).
   */
  maxJsonValues: env('MAX_JSON_VALUES', positiveInt(100000)),
  errorDisclosure: env('ERROR_DISCLOSURE', trimmedLower(['verbose', 'strict'], 'verbose')),
  /**
   * Base of problem `type` URIs (`{docs_url}`, spec §7.1), without a trailing slash. Empty by default: a `type` is then
   * the path `/errors/<kebab-name>/` of this server, which serves its own error pages there.
   */
  errorDocsUrl: env(
    'ERROR_DOCS_URL',
    z
      .string()
      .trim()
      .default('')
      .transform((value) => value.replace(/\/+$/, ''))
      .refine(
        (value) => value === '' || (httpUrl.test(value) && URL.canParse(value)),
        "must be an http:// or https:// URL, or empty (this server's own /errors/ pages)",
      ),
  ),
  /**
   * The clone cache of `method_ref` fetches: directory, eviction limits, the period of its sweep in minutes, and the
   * KiB of located packages each process keeps in memory (0: none).
   */
  methodCache: {
    dir: env('METHOD_CACHE_DIR', z.string().min(1).default(path.join(os.tmpdir(), 'mthds-runner-method-cache'))),
    maxClones: env('MAX_METHOD_CACHE_CLONES', positiveInt(64)),
    maxTotalKib: env('MAX_METHOD_CACHE_TOTAL_KIB', positiveInt(524288)),
    maxAgeHours: env('MAX_METHOD_CACHE_AGE_HOURS', positiveInt(24)),
    sweepMinutes: env('METHOD_CACHE_SWEEP_MINUTES', positiveInt(10)),
    packageMemoryKib: env('METHOD_PACKAGE_MEMORY_KIB', nonNegativeInt(32768)),
  },
  /**
   * Where `method_ref` fetches may go: the allowed code hosts (lower case), the clone URL template (`{host}`,
   * `{owner}`,
   * `{repo}`), whether private and loopback clone hosts are allowed (development and tests only), the bound of one
   * git command in ms, and how long a resolved commit is reused without `git ls-remote`, in seconds, for a tag and for
   * HEAD (0: resolve on every request; docs/methods.md#resolution-cache).
   */
  methodRef: {
    allowedHosts: env(
      'METHOD_REF_ALLOWED_HOSTS',
      z
        .string()
        .default('github.com,gitlab.com,bitbucket.org,codeberg.org')
        .transform((value) =>
          value
            .split(',')
            .map((host) => host.trim().toLowerCase())
            .filter((host) => host !== ''),
        )
        .pipe(
          z
            .array(
              z
                .string()
                .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'each host must be a DNS name with a dot, e.g. github.com'),
            )
            .min(1, 'name at least one host'),
        ),
    ),
    cloneUrlTemplate: env(
      'METHOD_REF_CLONE_URL_TEMPLATE',
      z
        .string()
        .default('https://{host}/{owner}/{repo}.git')
        .refine(
          (value) => httpUrl.test(value),
          'must be an http:// or https:// URL template (the only transports git may use)',
        )
        .refine((value) => value.includes('{repo}'), 'must contain the {repo} placeholder'),
    ),
    allowPrivateHosts: env('METHOD_REF_ALLOW_PRIVATE_HOSTS', booleanFlag(false)),
    gitTimeoutMs: env('METHOD_GIT_TIMEOUT_MS', positiveInt(120000)),
    resolveTtlSeconds: env('METHOD_REF_RESOLVE_TTL_SECONDS', nonNegativeInt(300)),
    headResolveTtlSeconds: env('METHOD_REF_HEAD_RESOLVE_TTL_SECONDS', nonNegativeInt(30)),
  },
  fetchLimits: {
    maxPackageFiles: env('SERVICE_MAX_FETCHED_PACKAGE_FILES', positiveInt(256)),
    maxPackageTotalKib: env('SERVICE_MAX_FETCHED_PACKAGE_TOTAL_KIB', positiveInt(8192)),
    maxScannedManifests: env('SERVICE_MAX_SCANNED_MANIFESTS', positiveInt(100)),
    maxManifestFileKib: env('SERVICE_MAX_MANIFEST_FILE_KIB', positiveInt(256)),
  },
  inference: {
    /** `auto` (the configuration's active routing profile), `mock`, or a profile of `routing_profiles.toml`. */
    profile: env('INFERENCE_PROFILE', z.string().trim().min(1).default('auto')),
    /** Timeout of one provider call, in ms. */
    timeoutMs: env('INFERENCE_TIMEOUT_MS', positiveInt(120000)),
    /** SDK retries of a failed provider call (with backoff, honouring Retry-After). */
    maxRetries: env('INFERENCE_MAX_RETRIES', nonNegativeInt(2)),
    /** Artificial latency of each mock inference call, in ms (holds runs in flight for tests and benchmarks). */
    mockLatencyMs: env('MOCK_INFERENCE_LATENCY_MS', nonNegativeInt(0)),
    /** Longest a call may wait for its provider rate limits (docs/inference.md#rate-limits), in ms. */
    rateLimitWaitMs: env('INFERENCE_RATE_LIMIT_WAIT_MS', nonNegativeInt(120000)),
    /** Window of the per-minute provider rate limits, in seconds (60; tests and benchmarks shorten it). */
    rateLimitWindowSeconds: env('INFERENCE_RATE_LIMIT_WINDOW_SECONDS', positiveInt(60)),
    /**
     * The share of each provider rate limit one organization's runs may use, in (0, 1] (1: no cap;
     * docs/inference.md#organization-shares); an organization's own `inference_rate_share` overrides it.
     */
    orgRateShare: env('INFERENCE_ORG_RATE_SHARE', z.coerce.number().gt(0).lte(1).default(1)),
  },
  /** Directory of the `api_{SERVICE_ENV}.toml` / `api_override.toml` layers. */
  serviceConfigDir: env('SERVICE_CONFIG_DIR', z.string().min(1).default(path.join(process.cwd(), 'config'))),
  queue: {
    redisUrl: env(
      'REDIS_URL',
      z
        .string()
        .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
        .default('redis://127.0.0.1:6379'),
    ),
    /**
     * TLS of a `rediss://` connection (docs/redis.md#tls-and-acl-users): PEM files of the certificate authorities to
     * trust (the system's otherwise), of the client certificate and its key (both or neither), and the server name to
     * verify when it is not the URL's host.
     */
    tls: {
      caFile: env('REDIS_TLS_CA_FILE', optionalSecret),
      certFile: env('REDIS_TLS_CERT_FILE', optionalSecret),
      keyFile: env('REDIS_TLS_KEY_FILE', optionalSecret),
      servername: env('REDIS_TLS_SERVERNAME', optionalSecret),
    },
    /**
     * Sentinel (docs/redis.md#sentinel): the sentinels as `host:port,…`, the name of the master they watch, and their
     * own password when they require one. Set, the host of `REDIS_URL` is not used: its user, password and database are.
     */
    sentinel: {
      nodes: env('REDIS_SENTINELS', optionalSecret),
      masterName: env('REDIS_SENTINEL_MASTER', optionalSecret),
      password: env('REDIS_SENTINEL_PASSWORD', optionalSecret),
    },
    /**
     * Redis Cluster (docs/redis.md#redis-cluster): nodes to learn the cluster from as `host:port,…`, and the addresses
     * the nodes announce mapped to those this process reaches them at (`announced=reachable,…`). Set, the host of
     * `REDIS_URL` is not used: its user and password are.
     */
    cluster: {
      nodes: env('REDIS_CLUSTER_NODES', optionalSecret),
      natMap: env('REDIS_CLUSTER_NAT_MAP', optionalSecret),
    },
    /**
     * Key prefix of every Redis key of this deployment (queues, run registry); in braces (`{mthds}`), a Redis Cluster
     * hash tag that puts every key of the deployment in one slot (docs/redis.md#one-hash-slot).
     */
    prefix: env(
      'QUEUE_PREFIX',
      z
        .string()
        .regex(
          /^([A-Za-z0-9_.-]{1,64}|\{[A-Za-z0-9_.-]{1,62}\})$/,
          'must be 1-64 characters of [A-Za-z0-9_.-], or such characters in braces (a hash tag: {mthds})',
        )
        .default('mthds'),
    ),
    /** Bound of a blocking `/v1/execute` in queue mode, in ms. */
    executeTimeoutMs: env('EXECUTE_TIMEOUT_MS', positiveInt(600000)),
    /** How long run records (status, result, error) are kept, in seconds. */
    runRecordTtlSeconds: env('RUN_RECORD_TTL_SECONDS', positiveInt(86400)),
    /** Attempts of a run whose failure is retryable (a transient provider error). */
    runMaxAttempts: env('RUN_MAX_ATTEMPTS', positiveInt(3)),
    /**
     * Run queue partitions (docs/redis.md#sharded-run-queues): each its own run, child and callback queues, run records,
     * events, checkpoints and dispatch gate under a hash tag of its own, a run's partition following from its id; 1 keeps
     * one set of keys under `QUEUE_PREFIX`.
     */
    runQueuePartitions: env('RUN_QUEUE_PARTITIONS', z.coerce.number().int().min(1).max(64).default(1)),
    /**
     * While the partition count changes, the count before: runs made under it are still found, and workers consume the
     * partitions of both counts (docs/redis.md#changing-the-partition-count). Unset: no change under way.
     */
    runQueuePartitionsPrevious: env('RUN_QUEUE_PARTITIONS_PREVIOUS', z.coerce.number().int().min(1).max(64).optional()),
  },
  /**
   * The dispatch gate (docs/fair-dispatch.md): runs an organization may have in the run queue at once (times its
   * share), runs it may have waiting in its line before the queue, and the highest `priority` its runs may ask for
   * unless its own ceiling is set.
   */
  dispatch: {
    orgInFlightLimit: env('RUN_ORG_IN_FLIGHT_LIMIT', positiveInt(1000)),
    orgWaitingLimit: env('RUN_ORG_WAITING_LIMIT', positiveInt(10000)),
    priorityCeiling: env('RUN_PRIORITY_CEILING', z.coerce.number().int().min(0).max(10).default(10)),
  },
  /**
   * The run lifecycle (docs/run-events.md, docs/api.md#run-lifecycle): most runs kept in memory by a deployment
   * without Redis, and most bytes of their records and events (as JSON text), most events kept per run, most event
   * streams open at once in one API process, how long an event stream may go without an event before it is closed in
   * ms, and the period of its heartbeat comments in ms.
   */
  runLifecycle: {
    maxRecordsInMemory: env('RUN_RECORDS_MAX_IN_MEMORY', positiveInt(1000)),
    maxBytesInMemory: env('RUN_RECORDS_MAX_IN_MEMORY_MIB', positiveInt(256), (mib) => mib * MIB),
    maxEventsPerRun: env('RUN_EVENTS_MAX_PER_RUN', positiveInt(10000)),
    maxEventStreams: env('RUN_EVENT_STREAMS_MAX', positiveInt(100)),
    eventStreamIdleMs: env('RUN_EVENT_STREAM_IDLE_MS', positiveInt(300000)),
    eventStreamHeartbeatMs: env('RUN_EVENT_STREAM_HEARTBEAT_MS', positiveInt(15000)),
  },
  /**
   * Worker processes: jobs at once, lock (stall detection) in ms, shutdown grace in ms, metrics and liveness port (0:
   * off), and the stall bound of its liveness.
   */
  worker: {
    concurrency: env('WORKER_CONCURRENCY', positiveInt(256)),
    lockDurationMs: env('WORKER_LOCK_DURATION_MS', positiveInt(30000)),
    shutdownGraceMs: env('WORKER_SHUTDOWN_GRACE_MS', nonNegativeInt(30000)),
    metricsPort: env('WORKER_METRICS_PORT', portNumber(0)),
    /** How long jobs may wait while a worker with free slots takes none before `/live` says so, in s (docs/redis.md#failover). */
    livenessStallSeconds: env('WORKER_LIVENESS_STALL_SECONDS', positiveInt(60)),
  },
  /**
   * Children of a controller (batch items, parallel branches; docs/fan-out.md): most running at once per controller
   * of a run, in either mode; whether a queued run's children run as child jobs any worker can take; child jobs a
   * worker process runs at once.
   */
  fanOut: {
    batchMaxParallel: env('BATCH_MAX_PARALLEL', positiveInt(8)),
    enabled: env('RUN_FAN_OUT', booleanFlag(true)),
    workerConcurrency: env('WORKER_CHILD_CONCURRENCY', positiveInt(32)),
  },
  /**
   * Most pipes one run starts, operators and controllers, its fanned-out children's included (docs/limits.md "Pipes
   * per run"): past it the run fails with `RunPipeBudgetExceededError`.
   */
  runMaxPipes: env('RUN_MAX_PIPES', positiveInt(10000)),
  /**
   * The largest `timeout_seconds` a run request may give (docs/cancellation.md#deadlines): a run is stopped `TIMED_OUT`
   * that long after it was accepted; a larger value is refused (422).
   */
  runTimeoutMaxSeconds: env('RUN_TIMEOUT_MAX_SECONDS', positiveInt(86400)),
  /**
   * How long the API process lets open HTTP requests finish after SIGTERM / SIGINT before it closes every connection,
   * in ms (docs/run-failures.md#shutdown-and-grace-periods).
   */
  shutdownGraceMs: env('SHUTDOWN_GRACE_MS', nonNegativeInt(10000)),
  /**
   * Limits of the quarantine process that runs the one retake of a run whose worker process died
   * (docs/run-failures.md): its V8 heap (old generation) in MiB, the wall-clock bound of the attempt in ms, and the
   * most quarantine processes one worker process runs at once (further retakes wait).
   */
  quarantine: {
    heapMib: env('RUN_QUARANTINE_HEAP_MIB', positiveInt(512)),
    timeoutMs: env('RUN_QUARANTINE_TIMEOUT_MS', positiveInt(600000)),
    concurrency: env('RUN_QUARANTINE_CONCURRENCY', positiveInt(1)),
  },
  /**
   * Step checkpoints of queued runs (docs/checkpoints.md): the largest checkpoint kept, in bytes of JSON (a larger one
   * is
   * not kept: its step runs again on a retake; 0 keeps none), and how long those of a run that ended `FAILED`,
   * `CANCELLED` or `TIMED_OUT` are kept for its retries, in hours (0: dropped at once, like a completed run's).
   */
  checkpoints: {
    maxBytes: env('STEP_CHECKPOINT_MAX_BYTES', nonNegativeInt(1048576)),
    retentionHours: env('RUN_CHECKPOINT_RETENTION_HOURS', nonNegativeInt(48)),
  },
  callbacks: {
    allowPrivateHosts: env('CALLBACK_ALLOW_PRIVATE_HOSTS', booleanFlag(false)),
    timeoutMs: env('CALLBACK_TIMEOUT_MS', positiveInt(10000)),
    maxAttempts: env('CALLBACK_MAX_ATTEMPTS', positiveInt(6)),
    backoffMs: env('CALLBACK_BACKOFF_MS', positiveInt(2000)),
  },
  /** Documents read by PipeExtract: largest size in bytes, fetch timeout in ms, private hosts allowed (tests only). */
  documents: {
    maxBytes: env('DOCUMENT_MAX_MIB', positiveInt(50), (mib) => mib * MIB),
    timeoutMs: env('DOCUMENT_FETCH_TIMEOUT_MS', positiveInt(30000)),
    allowPrivateHosts: env('DOCUMENT_ALLOW_PRIVATE_HOSTS', booleanFlag(false)),
    maxRedirects: env('DOCUMENT_MAX_REDIRECTS', nonNegativeInt(3)),
  },
  /**
   * Whole-bundle transports (`bundle_b64` / `files`, docs/bundles.md#whole-bundle-transports): most files, most
   * decompressed bytes.
   */
  bundles: {
    maxFiles: env('MAX_BUNDLE_FILES', positiveInt(128)),
    maxTotalBytes: env('MAX_BUNDLE_TOTAL_KIB', positiveInt(8192), (kib) => kib * KIB),
  },
  /**
   * The diagnostics pool (docs/isolation.md#diagnostics-pool): threads at most, threads kept warm (at most
   * `threads`; unset, all of them), requests that may wait beyond the busy threads, longest wait in ms, time budget of
   * one request in ms, heap of one thread in MiB, how long a thread beyond the warm ones stays idle in ms, and the MiB
   * of the diagnostic routes' answer cache (0 turns it off).
   */
  compute: {
    threads: env('COMPUTE_THREADS', positiveInt(Math.max(1, os.availableParallelism() - 1))),
    warmThreads: env('COMPUTE_WARM_THREADS', z.coerce.number().int().nonnegative().optional()),
    queueMax: env('COMPUTE_QUEUE_MAX', nonNegativeInt(32)),
    queueDeadlineMs: env('COMPUTE_QUEUE_DEADLINE_MS', positiveInt(30000)),
    timeoutMs: env('COMPUTE_TIMEOUT_MS', positiveInt(60000)),
    heapMib: env('COMPUTE_HEAP_MIB', z.coerce.number().int().min(64).default(1024)),
    idleTimeoutMs: env('COMPUTE_IDLE_TIMEOUT_MS', positiveInt(60000)),
    answerCacheMib: env('DIAGNOSTIC_CACHE_MIB', nonNegativeInt(32)),
  },
  metricsEnabled: env('METRICS_ENABLED', booleanFlag(true)),
  adminQueuesEnabled: env('ADMIN_QUEUES_ENABLED', booleanFlag(true)),
  /** `ADMIN_QUEUES_READ_ONLY`: the queue dashboard shows the queues and refuses every change to them. */
  adminQueuesReadOnly: env('ADMIN_QUEUES_READ_ONLY', booleanFlag(true)),
  /**
   * Template renders (docs/isolation.md#templates): largest rendered text in KiB of characters, hard wall-clock
   * budget of one render in ms, heap of one render thread in MiB, render threads per process.
   */
  templates: {
    maxOutputKib: env('TEMPLATE_MAX_OUTPUT_KIB', positiveInt(1024)),
    renderTimeoutMs: env('TEMPLATE_RENDER_TIMEOUT_MS', positiveInt(5000)),
    renderHeapMib: env('TEMPLATE_RENDER_HEAP_MIB', z.coerce.number().int().min(16).default(256)),
    renderThreads: env('TEMPLATE_RENDER_THREADS', positiveInt(2)),
  },
  /**
   * The control plane's database (docs/control-plane.md): PostgreSQL at `DATABASE_URL`, else the embedded PGlite in a
   * directory one process holds; the most connections a process opens to PostgreSQL.
   */
  database: {
    url: env(
      'DATABASE_URL',
      z
        .string()
        .trim()
        .optional()
        .transform((value) => (value === '' ? undefined : value))
        .refine(
          (value) => value === undefined || /^postgres(ql)?:\/\//.test(value),
          'must be a postgres:// or postgresql:// URL',
        ),
    ),
    embeddedDir: env(
      'DATABASE_EMBEDDED_DIR',
      z
        .string()
        .min(1)
        .default(path.join(process.cwd(), 'var', 'database')),
    ),
    poolMax: env('DATABASE_POOL_MAX', positiveInt(10)),
  },
  /**
   * API keys kept in the control plane (docs/api.md#api-keys): the most active keys (neither revoked nor expired) one
   * organization may hold.
   */
  apiKeys: {
    maxPerOrganization: env('API_KEYS_MAX_PER_ORGANIZATION', positiveInt(50)),
  },
  /**
   * The run history (docs/control-plane.md#run-history): how many days a run's row is kept after it was created (the
   * sweep runs every `STORAGE_SWEEP_MINUTES`; 0 keeps every row).
   */
  runHistory: {
    retentionDays: env('RUN_HISTORY_RETENTION_DAYS', nonNegativeInt(90)),
  },
  /** Idempotency keys (docs/api.md#idempotency): how many hours a key is kept after its first request. */
  idempotency: {
    ttlHours: env('IDEMPOTENCY_KEY_TTL_HOURS', positiveInt(24)),
  },
  /**
   * The MCP endpoint (docs/mcp.md#durable-calls): how long a tool call waits for its run before it answers with the
   * run's id (below the 60 s an MCP client waits for an answer by default).
   */
  mcp: {
    callWaitSeconds: env('MCP_CALL_WAIT_SECONDS', positiveInt(50)),
  },
  /**
   * Run storage (docs/storage.md): the backend and where it keeps objects, what is moved out of Redis and of results
   * into it, how long signed URLs live, how long each leaf is kept, and how often the sweeper runs.
   */
  storage: {
    /** `fs` (a directory, the default) or `s3` (an S3-compatible bucket). */
    backend: env('STORAGE_BACKEND', trimmedLower(['fs', 's3'], 'fs')),
    /** The directory of the `fs` backend. */
    dir: env(
      'STORAGE_DIR',
      z
        .string()
        .min(1)
        .default(path.join(process.cwd(), 'var', 'storage')),
    ),
    /** The bucket of the `s3` backend (credentials come from the AWS SDK's default chain); no endpoint: AWS's. */
    s3: {
      bucket: env('STORAGE_S3_BUCKET', z.string().trim().optional(), (bucket) => bucket ?? ''),
      endpoint: env(
        'STORAGE_S3_ENDPOINT',
        z
          .string()
          .trim()
          .optional()
          .transform((value) => (value === '' ? undefined : value))
          .refine((value) => value === undefined || httpUrl.test(value), 'must be an http:// or https:// URL'),
      ),
      region: env('STORAGE_S3_REGION', z.string().trim().min(1).default('us-east-1')),
      forcePathStyle: env('STORAGE_S3_FORCE_PATH_STYLE', booleanFlag(false)),
    },
    /** A queue job payload larger than this (bytes of JSON) goes to `payloads/` and Redis keeps a reference. */
    payloadOffloadBytes: env('STORAGE_PAYLOAD_OFFLOAD_KIB', positiveInt(64), (kib) => kib * KIB),
    /**
     * A `data:` URL in inputs or results longer than this (characters, at least 256: longer than a graph preview) goes
     * to `assets/` or `generated/`.
     */
    inlineMediaMaxBytes: env('STORAGE_INLINE_MEDIA_MAX_BYTES', z.coerce.number().int().min(256).default(16384)),
    /** Lifetime of a presigned S3 URL handed to a caller, in seconds. */
    urlTtlSeconds: env('STORAGE_URL_TTL_SECONDS', positiveInt(3600)),
    /** How long objects of each leaf are kept after they were written, in hours (0: kept until deleted). */
    retentionHours: {
      assets: env('STORAGE_RETENTION_ASSETS_HOURS', nonNegativeInt(168)),
      generated: env('STORAGE_RETENTION_GENERATED_HOURS', nonNegativeInt(720)),
      results: env('STORAGE_RETENTION_RESULTS_HOURS', nonNegativeInt(720)),
      payloads: env('STORAGE_RETENTION_PAYLOADS_HOURS', nonNegativeInt(48)),
      submissions: env('STORAGE_RETENTION_SUBMISSIONS_HOURS', nonNegativeInt(2160)),
      uploads: env('STORAGE_RETENTION_UPLOADS_HOURS', nonNegativeInt(168)),
    },
    /** Uploads (docs/uploads.md): the largest object, a grant's lifetime, and the key that signs this server's URLs. */
    uploads: {
      /** The largest upload, in bytes (`POST /v1/upload` decoded, or a grant's `size`). */
      maxBytes: env('STORAGE_UPLOAD_MAX_MIB', positiveInt(100), (mib) => mib * MIB),
      /** How long an upload grant's URL may be used, in seconds. */
      grantTtlSeconds: env('STORAGE_UPLOAD_GRANT_TTL_SECONDS', positiveInt(900)),
      /**
       * The key of the URLs this server signs itself (the filesystem backend's upload and download links); unset, a
       * random key per process (links then work only on the process that made them).
       */
      signingSecret: env('STORAGE_SIGNING_SECRET', optionalSecret),
    },
    /** Period of the retention sweep, in minutes. */
    sweepMinutes: env('STORAGE_SWEEP_MINUTES', positiveInt(60)),
  },
} satisfies SettingsNode;

/**
 * Variables validated at start but read elsewhere, so a bad value refuses to boot rather than fail the first call:
 * provider base URLs, substituted into the inference configuration (docs/inference.md).
 */
const VALIDATED_ONLY: readonly Variable<unknown>[] = [
  env('OPENAI_BASE_URL', z.string().url().optional()),
  env('ANTHROPIC_BASE_URL', z.string().url().optional()),
];

/** A branch of {@link SETTINGS_TABLE}: a variable, or a group of settings. */
type SettingsNode = Variable<unknown> | { readonly [key: string]: SettingsNode };

/** The settings a branch of the table gives: each variable replaced by its value. */
type Resolved<N> = N extends Variable<infer T> ? T : { -readonly [K in keyof N]: Resolved<N[K]> };

/** `T` with the properties of `U` replacing its own. */
type Replace<T, U> = Omit<T, keyof U> & U;

type TableSettings = Resolved<typeof SETTINGS_TABLE>;

/**
 * Every variable {@link loadSettings} reads, in table order, each with its schema (`schema.parse(undefined)` is its
 * default): what README.md#configuration documents.
 */
export const SETTING_VARIABLES: readonly Pick<Variable<unknown>, 'name' | 'schema'>[] = [
  ...variablesOf(SETTINGS_TABLE),
  ...VALIDATED_ONLY,
];

function variablesOf(node: SettingsNode): Variable<unknown>[] {
  return node instanceof Variable ? [node] : Object.values(node).flatMap(variablesOf);
}

function resolve(node: SettingsNode, parsed: Readonly<Record<string, unknown>>): unknown {
  if (node instanceof Variable) return node.read(parsed);
  return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, resolve(child, parsed)]));
}

const ENV_SCHEMA = z.object(Object.fromEntries(SETTING_VARIABLES.map((variable) => [variable.name, variable.schema])));

/** Raw environment shape accepted by {@link loadSettings}. */
export type Environment = Record<string, string | undefined>;

/** How callers are authenticated (spec §5). The secret travels with the mode, so a mode without one cannot exist. */
export type AuthSettings = { mode: 'none' } | { mode: 'api_key'; apiKey: string } | { mode: 'jwt'; jwtSecret: string };

/** Run storage (docs/storage.md): {@link SETTINGS_TABLE} `storage`, the S3 endpoint present only when set. */
export type StorageSettings = Replace<
  TableSettings['storage'],
  { s3: Replace<TableSettings['storage']['s3'], { endpoint?: string }> }
>;

/** Connection caps and time bounds of the API's HTTP server (docs/limits.md#connections), all times in ms. */
export type HttpServerSettings = TableSettings['http'];

/** Bounds of the diagnostics pool (README "Configuration", `COMPUTE_*`); `warmThreads` is at most `threads`. */
export type ComputeSettings = Replace<TableSettings['compute'], { warmThreads: number }>;

/**
 * The validated settings: {@link SETTINGS_TABLE} resolved, with the authentication mode and its secret as one value.
 */
export type Settings = Replace<
  TableSettings,
  { auth: AuthSettings; compute: ComputeSettings; storage: StorageSettings; queue: QueueSettings }
>;

/**
 * The queue settings: {@link SETTINGS_TABLE} `queue`, its Redis variables checked together into the one target every
 * Redis client connects to.
 */
export type QueueSettings = Omit<TableSettings['queue'], 'redisUrl' | 'tls' | 'sentinel' | 'cluster'> & {
  redis: RedisTarget;
  /**
   * When these are one run partition's settings (docs/redis.md#sharded-run-queues), the deployment's `QUEUE_PREFIX`:
   * the keys every partition shares (the provider rate limits) stay under it.
   */
  sharedPrefix?: string;
};

/**
 * Thrown when the configuration cannot make valid settings. The message is one line naming every offending variable or
 * file, `Invalid configuration, refusing to start: <VARIABLE>: <problem>; …`: what a process prints before it exits
 * with status 1 (README.md#configuration).
 */
export class SettingsError extends Error {
  /** @param problems - one entry per problem, each starting with the variable or file it concerns */
  constructor(readonly problems: string[]) {
    super(
      `Invalid configuration, refusing to start: ${problems.map((problem) => problem.replace(/\s*\n\s*/g, ' ')).join('; ')}`,
    );
    this.name = 'SettingsError';
  }
}

function authSettings({ mode, apiKey, jwtSecret }: TableSettings['auth'], problems: string[]): AuthSettings {
  switch (mode) {
    case 'api_key':
      if (apiKey) return { mode: 'api_key', apiKey };
      problems.push('API_KEY: required when AUTH_MODE=api_key (the bearer token callers must send)');
      return { mode: 'none' };
    case 'jwt':
      if (jwtSecret) return { mode: 'jwt', jwtSecret };
      problems.push('JWT_SECRET_KEY: required when AUTH_MODE=jwt (the HS256 signing secret)');
      return { mode: 'none' };
    default:
      return { mode: 'none' };
  }
}

/** Fewest characters of `OPERATOR_API_KEY` (`openssl rand -hex 32` gives 64). */
const MIN_OPERATOR_KEY_LENGTH = 16;

/**
 * Heap a diagnostics thread needs per MiB of request body: a body decoded in a thread is its text (up to 2 bytes a
 * byte) and then its value (as much again), each one allocation when the body is one long string.
 */
const THREAD_HEAP_PER_BODY_MIB = 4;
/** Heap a diagnostics thread needs beside a body: its modules and the formatter, in MiB. */
const THREAD_HEAP_BASE_MIB = 64;

/**
 * A diagnostics thread's heap must hold the largest body it decodes at once (docs/isolation.md "Why a thread's heap
 * limit can stop the process"): one allocation past the heap limit aborts the process, not the thread.
 */
function threadHeapProblems(table: TableSettings, problems: string[]): void {
  const needed = THREAD_HEAP_PER_BODY_MIB * table.maxRequestBodyMib + THREAD_HEAP_BASE_MIB;
  if (table.compute.heapMib < needed)
    problems.push(
      `COMPUTE_HEAP_MIB: must be at least ${needed} (${THREAD_HEAP_PER_BODY_MIB} × MAX_REQUEST_BODY_MIB + ${THREAD_HEAP_BASE_MIB}): a diagnostics thread decodes a whole body at once, and an allocation its heap cannot hold stops the process, not the thread`,
    );
}

/** The operator key's problems: too short, or equal to a tenant credential or to the JWT signing secret. */
function operatorKeyProblems(table: TableSettings, problems: string[]): void {
  const key = table.operatorApiKey;
  if (key === undefined) return;
  if (key.length < MIN_OPERATOR_KEY_LENGTH)
    problems.push(`OPERATOR_API_KEY: must be at least ${MIN_OPERATOR_KEY_LENGTH} characters (openssl rand -hex 32)`);
  if (key === table.auth.apiKey || key === table.auth.jwtSecret)
    problems.push(
      'OPERATOR_API_KEY: must differ from API_KEY and JWT_SECRET_KEY (the operator credential is never a tenant credential or a signing secret)',
    );
}

/** The rules between variables, and the settings no single variable gives (the auth mode with its secret). */
function finish(table: TableSettings): Settings {
  const problems: string[] = [];
  const auth = authSettings(table.auth, problems);
  const redis = redisTarget(table.queue, problems);
  operatorKeyProblems(table, problems);
  threadHeapProblems(table, problems);
  const { http, compute, storage } = table;
  if (http.headersTimeoutMs > http.requestTimeoutMs)
    problems.push(
      `HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (${http.requestTimeoutMs}): the headers are part of the request`,
    );
  if (storage.backend === 's3' && !storage.s3.bucket)
    problems.push('STORAGE_S3_BUCKET: required when STORAGE_BACKEND=s3 (the bucket run objects are kept in)');
  if (problems.length > 0) throw new SettingsError(problems);
  const { endpoint, ...s3 } = storage.s3;
  const { redisUrl: _url, tls: _tls, sentinel: _sentinel, cluster: _cluster, ...queue } = table.queue;
  return {
    ...table,
    queue: { ...queue, redis },
    auth,
    compute: { ...compute, warmThreads: Math.min(compute.warmThreads ?? compute.threads, compute.threads) },
    storage: { ...storage, s3: endpoint ? { ...s3, endpoint } : s3 },
  };
}

/**
 * Read and validate the settings.
 * @param environment - usually `process.env`; tests pass their own
 * @returns the typed settings
 * @throws SettingsError naming each invalid variable and what it accepts
 * @see spec §1.1
 */
export function loadSettings(environment: Environment): Settings {
  const parsed = ENV_SCHEMA.safeParse(environment);
  if (!parsed.success) {
    throw new SettingsError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  // The cast is safe: `resolve` replaces each variable of the table by its value, which is what `Resolved` says.
  return finish(resolve(SETTINGS_TABLE, parsed.data) as TableSettings);
}
