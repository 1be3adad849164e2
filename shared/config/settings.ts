/**
 * Deployment settings read from the environment once at start-up (spec §1.1), validated into one typed object.
 *
 * An invalid value refuses to boot with a message that names the variable. `COMPLETION_CALLBACK_SECRET` is
 * deliberately absent: the spec says it is read lazily, only when a signature is computed.
 *
 * @see spec §1.1, §5 (auth), §7.5 (disclosure), README.md "Configuration"
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const nonNegativeInt = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);
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

/** The environment schema: one entry per variable, with its default. */
const booleanFlag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? String(fallback) : value.trim().toLowerCase()))
    .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no']))
    .transform((value) => value === 'true' || value === '1' || value === 'yes');

const ENV_SCHEMA = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  HOST: z.string().default('0.0.0.0'),
  HTTP_MAX_CONNECTIONS: positiveInt(4096),
  HTTP_MAX_CONNECTIONS_PER_IP: nonNegativeInt(256),
  HTTP_HEADERS_TIMEOUT_MS: positiveInt(10000),
  HTTP_REQUEST_TIMEOUT_MS: positiveInt(300000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt(5000),
  LOG_LEVEL: trimmedLower(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  AUTH_MODE: trimmedLower(['none', 'api_key', 'jwt'], 'none'),
  API_KEY: optionalSecret,
  JWT_SECRET_KEY: optionalSecret,
  OPERATOR_API_KEY: optionalSecret,
  SERVICE_ENV: z.string().trim().min(1).default('dev'),
  SERVICE_GATEWAY_API_KEY: optionalSecret,
  MAX_REQUEST_BODY_MIB: positiveInt(100),
  MAX_MTHDS_FILE_KIB: positiveInt(1024),
  MAX_JSON_DEPTH: positiveInt(64),
  MAX_JSON_VALUES: positiveInt(100000),
  ERROR_DISCLOSURE: trimmedLower(['verbose', 'strict'], 'verbose'),
  ERROR_DOCS_URL: z
    .string()
    .trim()
    .default('')
    .transform((value) => value.replace(/\/+$/, ''))
    .refine(
      (value) => value === '' || (/^https?:\/\//.test(value) && URL.canParse(value)),
      "must be an http:// or https:// URL, or empty (this server's own /errors/ pages)",
    ),
  METHOD_CACHE_DIR: z.string().min(1).default(path.join(os.tmpdir(), 'mthds-runner-method-cache')),
  MAX_METHOD_CACHE_CLONES: positiveInt(64),
  MAX_METHOD_CACHE_TOTAL_KIB: positiveInt(524288),
  MAX_METHOD_CACHE_AGE_HOURS: positiveInt(24),
  METHOD_CACHE_SWEEP_MINUTES: positiveInt(10),
  METHOD_PACKAGE_MEMORY_KIB: nonNegativeInt(32768),
  METHOD_REF_ALLOWED_HOSTS: z
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
          z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'each host must be a DNS name with a dot, e.g. github.com'),
        )
        .min(1, 'name at least one host'),
    ),
  METHOD_REF_CLONE_URL_TEMPLATE: z
    .string()
    .default('https://{host}/{owner}/{repo}.git')
    .refine(
      (value) => /^https?:\/\//.test(value),
      'must be an http:// or https:// URL template (the only transports git may use)',
    )
    .refine((value) => value.includes('{repo}'), 'must contain the {repo} placeholder'),
  METHOD_REF_ALLOW_PRIVATE_HOSTS: booleanFlag(false),
  METHOD_GIT_TIMEOUT_MS: positiveInt(120000),
  METHOD_REF_RESOLVE_TTL_SECONDS: nonNegativeInt(300),
  METHOD_REF_HEAD_RESOLVE_TTL_SECONDS: nonNegativeInt(30),
  SERVICE_MAX_FETCHED_PACKAGE_FILES: positiveInt(256),
  SERVICE_MAX_FETCHED_PACKAGE_TOTAL_KIB: positiveInt(8192),
  SERVICE_MAX_SCANNED_MANIFESTS: positiveInt(100),
  SERVICE_MAX_MANIFEST_FILE_KIB: positiveInt(256),
  INFERENCE_PROFILE: z.string().trim().min(1).default('auto'),
  INFERENCE_TIMEOUT_MS: positiveInt(120000),
  INFERENCE_MAX_RETRIES: nonNegativeInt(2),
  INFERENCE_RATE_LIMIT_WAIT_MS: nonNegativeInt(120000),
  INFERENCE_RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
  OPENAI_BASE_URL: z.string().url().optional(),
  ANTHROPIC_BASE_URL: z.string().url().optional(),
  MOCK_INFERENCE_LATENCY_MS: nonNegativeInt(0),
  SERVICE_CONFIG_DIR: z.string().min(1).default(path.join(process.cwd(), 'config')),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 characters of [A-Za-z0-9_.-]')
    .default('mthds'),
  EXECUTE_TIMEOUT_MS: positiveInt(600000),
  RUN_RECORD_TTL_SECONDS: positiveInt(86400),
  RUN_MAX_ATTEMPTS: positiveInt(3),
  RUN_RECORDS_MAX_IN_MEMORY: positiveInt(1000),
  RUN_RECORDS_MAX_IN_MEMORY_MIB: positiveInt(256),
  RUN_EVENTS_MAX_PER_RUN: positiveInt(10000),
  RUN_EVENT_STREAMS_MAX: positiveInt(100),
  RUN_EVENT_STREAM_IDLE_MS: positiveInt(300000),
  RUN_EVENT_STREAM_HEARTBEAT_MS: positiveInt(15000),
  WORKER_CONCURRENCY: positiveInt(256),
  WORKER_LOCK_DURATION_MS: positiveInt(30000),
  WORKER_SHUTDOWN_GRACE_MS: nonNegativeInt(30000),
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  BATCH_MAX_PARALLEL: positiveInt(8),
  RUN_MAX_PIPES: positiveInt(10000),
  RUN_FAN_OUT: booleanFlag(true),
  WORKER_CHILD_CONCURRENCY: positiveInt(32),
  SHUTDOWN_GRACE_MS: nonNegativeInt(10000),
  RUN_QUARANTINE_HEAP_MIB: positiveInt(512),
  RUN_QUARANTINE_TIMEOUT_MS: positiveInt(600000),
  RUN_QUARANTINE_CONCURRENCY: positiveInt(1),
  STEP_CHECKPOINT_MAX_BYTES: nonNegativeInt(1048576),
  CALLBACK_ALLOW_PRIVATE_HOSTS: booleanFlag(false),
  CALLBACK_TIMEOUT_MS: positiveInt(10000),
  CALLBACK_MAX_ATTEMPTS: positiveInt(6),
  CALLBACK_BACKOFF_MS: positiveInt(2000),
  DOCUMENT_MAX_MIB: positiveInt(50),
  MAX_BUNDLE_FILES: positiveInt(128),
  MAX_BUNDLE_TOTAL_KIB: positiveInt(8192),
  DOCUMENT_FETCH_TIMEOUT_MS: positiveInt(30000),
  DOCUMENT_MAX_REDIRECTS: nonNegativeInt(3),
  DOCUMENT_ALLOW_PRIVATE_HOSTS: booleanFlag(false),
  COMPUTE_THREADS: positiveInt(Math.max(1, os.availableParallelism() - 1)),
  COMPUTE_WARM_THREADS: z.coerce.number().int().nonnegative().optional(),
  COMPUTE_QUEUE_MAX: nonNegativeInt(32),
  COMPUTE_QUEUE_DEADLINE_MS: positiveInt(30000),
  COMPUTE_TIMEOUT_MS: positiveInt(60000),
  COMPUTE_HEAP_MIB: z.coerce.number().int().min(64).default(1024),
  COMPUTE_IDLE_TIMEOUT_MS: positiveInt(60000),
  DIAGNOSTIC_CACHE_MIB: nonNegativeInt(32),
  METRICS_ENABLED: booleanFlag(true),
  ADMIN_QUEUES_ENABLED: booleanFlag(true),
  ADMIN_QUEUES_READ_ONLY: booleanFlag(true),
  TEMPLATE_MAX_OUTPUT_KIB: positiveInt(1024),
  TEMPLATE_RENDER_TIMEOUT_MS: positiveInt(5000),
  TEMPLATE_RENDER_HEAP_MIB: z.coerce.number().int().min(16).default(256),
  TEMPLATE_RENDER_THREADS: positiveInt(2),
  STORAGE_BACKEND: trimmedLower(['fs', 's3'], 'fs'),
  STORAGE_DIR: z
    .string()
    .min(1)
    .default(path.join(process.cwd(), 'var', 'storage')),
  STORAGE_S3_BUCKET: z.string().trim().optional(),
  STORAGE_S3_ENDPOINT: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || /^https?:\/\//.test(value), 'must be an http:// or https:// URL'),
  STORAGE_S3_REGION: z.string().trim().min(1).default('us-east-1'),
  STORAGE_S3_FORCE_PATH_STYLE: booleanFlag(false),
  STORAGE_PAYLOAD_OFFLOAD_KIB: positiveInt(64),
  STORAGE_INLINE_MEDIA_MAX_BYTES: z.coerce.number().int().min(256).default(16384),
  STORAGE_URL_TTL_SECONDS: positiveInt(3600),
  STORAGE_RETENTION_ASSETS_HOURS: nonNegativeInt(168),
  STORAGE_RETENTION_GENERATED_HOURS: nonNegativeInt(720),
  STORAGE_RETENTION_RESULTS_HOURS: nonNegativeInt(720),
  STORAGE_RETENTION_PAYLOADS_HOURS: nonNegativeInt(48),
  STORAGE_SWEEP_MINUTES: positiveInt(60),
});

/** Raw environment shape accepted by {@link loadSettings}. */
export type Environment = Record<string, string | undefined>;

/** How callers are authenticated (spec §5). The secret travels with the mode, so a mode without one cannot exist. */
export type AuthSettings = { mode: 'none' } | { mode: 'api_key'; apiKey: string } | { mode: 'jwt'; jwtSecret: string };

/** The validated settings. Units are in the names (MiB, KiB, hours, ms). */
export interface Settings {
  port: number;
  host: string;
  /** Connection caps and time bounds of the API's HTTP server (docs/limits.md "Connections"). */
  http: HttpServerSettings;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  auth: AuthSettings;
  /**
   * `OPERATOR_API_KEY`: the operator credential of `/admin/*` and `/metrics`, distinct from every tenant credential
   * (docs/run-ownership.md "Operators"); unset, only a `jwt` token with the `operator` role is one, and with
   * `AUTH_MODE=none` the operator routes are open like every route.
   */
  operatorApiKey: string | undefined;
  serviceEnv: string;
  gatewayApiKey: string | undefined;
  maxRequestBodyMib: number;
  /** Largest `.mthds` text accepted inline (lint and format `content`), in KiB of UTF-8 (API-CONTRACT.md §11). */
  maxMthdsFileKib: number;
  /**
   * Deepest nesting of arrays and objects in a JSON request body (`{}` is depth 1); a deeper body is a 422 before any
   * handler runs (spec §8, docs/limits.md).
   */
  maxJsonDepth: number;
  /**
   * Most values a JSON request body may hold: each string (object keys included), number, `true`, `false`, `null`,
   * array and object counts one; a body holding more is a 422 before it is parsed (docs/limits.md "JSON values").
   */
  maxJsonValues: number;
  errorDisclosure: 'verbose' | 'strict';
  /**
   * Base of problem `type` URIs (`{docs_url}`, spec §7.1), without a trailing slash. Empty by default: a `type` is then
   * the path `/errors/<kebab-name>/` of this server, which serves its own error pages there.
   */
  errorDocsUrl: string;
  /**
   * The clone cache of `method_ref` fetches: directory, eviction limits, the period of its sweep in minutes, and the
   * KiB of located packages each process keeps in memory (`METHOD_PACKAGE_MEMORY_KIB`, 0: none).
   */
  methodCache: {
    dir: string;
    maxClones: number;
    maxTotalKib: number;
    maxAgeHours: number;
    sweepMinutes: number;
    packageMemoryKib: number;
  };
  /**
   * Where `method_ref` fetches may go: the allowed code hosts (lower case), the clone URL template (`{host}`, `{owner}`,
   * `{repo}`), whether private and loopback clone hosts are allowed (development and tests only), the bound of one
   * git command in ms, and how long a resolved commit is reused without `git ls-remote`, in seconds, for a tag and for
   * HEAD (0: resolve on every request; docs/methods.md "Resolution cache").
   */
  methodRef: {
    allowedHosts: string[];
    cloneUrlTemplate: string;
    allowPrivateHosts: boolean;
    gitTimeoutMs: number;
    resolveTtlSeconds: number;
    headResolveTtlSeconds: number;
  };
  fetchLimits: {
    maxPackageFiles: number;
    maxPackageTotalKib: number;
    maxScannedManifests: number;
    maxManifestFileKib: number;
  };
  inference: {
    /** `auto` (the configuration's active routing profile), `mock`, or a profile of `routing_profiles.toml`. */
    profile: string;
    /** Timeout of one provider call, in ms. */
    timeoutMs: number;
    /** SDK retries of a failed provider call (with backoff, honouring Retry-After). */
    maxRetries: number;
    /** Artificial latency of each mock inference call, in ms (holds runs in flight for tests and benchmarks). */
    mockLatencyMs: number;
    /** Longest a call may wait for its provider rate limits (docs/inference.md "Rate limits"), in ms. */
    rateLimitWaitMs: number;
    /** Window of the per-minute provider rate limits, in seconds (60; tests and benchmarks shorten it). */
    rateLimitWindowSeconds: number;
  };
  /** Directory of the `api_{SERVICE_ENV}.toml` / `api_override.toml` layers. */
  serviceConfigDir: string;
  queue: {
    redisUrl: string;
    /** Key prefix of every Redis key of this deployment (queues, run registry). */
    prefix: string;
    /** Bound of a blocking `/v1/execute` in queue mode, in ms. */
    executeTimeoutMs: number;
    /** How long run records (status, result, error) are kept, in seconds. */
    runRecordTtlSeconds: number;
    /** Attempts of a run whose failure is retryable (a transient provider error). */
    runMaxAttempts: number;
  };
  /**
   * The run lifecycle (docs/run-events.md, docs/api.md "Run lifecycle"): most runs kept in memory by a deployment
   * without Redis, and most bytes of their records and events (as JSON text), most events kept per run, most event streams open at once in one API process, how long an event
   * stream may go without an event before it is closed in ms, and the period of its heartbeat comments in ms.
   */
  runLifecycle: {
    maxRecordsInMemory: number;
    maxBytesInMemory: number;
    maxEventsPerRun: number;
    maxEventStreams: number;
    eventStreamIdleMs: number;
    eventStreamHeartbeatMs: number;
  };
  /** Worker processes: jobs at once, lock (stall detection) in ms, shutdown grace in ms, metrics port (0: off). */
  worker: { concurrency: number; lockDurationMs: number; shutdownGraceMs: number; metricsPort: number };
  /**
   * Children of a controller (batch items, parallel branches; docs/fan-out.md): most running at once per controller
   * of a run, in either mode (`BATCH_MAX_PARALLEL`); whether a queued run's children run as child jobs any worker can
   * take (`RUN_FAN_OUT`); child jobs a worker process runs at once (`WORKER_CHILD_CONCURRENCY`).
   */
  fanOut: { batchMaxParallel: number; enabled: boolean; workerConcurrency: number };
  /**
   * Most pipes one run starts, operators and controllers, its fanned-out children's included (`RUN_MAX_PIPES`,
   * docs/limits.md "Pipes per run"): past it the run fails with `RunPipeBudgetExceededError`.
   */
  runMaxPipes: number;
  /**
   * How long the API process lets open HTTP requests finish after SIGTERM / SIGINT before it closes every connection,
   * in ms (docs/run-failures.md "Shutdown").
   */
  shutdownGraceMs: number;
  /**
   * Limits of the quarantine process that runs the one retake of a run whose worker process died
   * (docs/run-failures.md): its V8 heap (old generation) in MiB, the wall-clock bound of the attempt in ms, and the
   * most quarantine processes one worker process runs at once (`RUN_QUARANTINE_CONCURRENCY`; further retakes wait).
   */
  quarantine: { heapMib: number; timeoutMs: number; concurrency: number };
  /**
   * Step checkpoints of queued runs (docs/checkpoints.md): the largest checkpoint kept, in bytes of JSON (a larger one is
   * not kept: its step runs again on a retake); 0 keeps none.
   */
  checkpoints: { maxBytes: number };
  callbacks: { allowPrivateHosts: boolean; timeoutMs: number; maxAttempts: number; backoffMs: number };
  /** Documents read by PipeExtract: largest size in bytes, fetch timeout in ms, private hosts allowed (tests only). */
  documents: { maxBytes: number; timeoutMs: number; allowPrivateHosts: boolean; maxRedirects: number };
  /** Whole-bundle transports (`bundle_b64` / `files`, API-CONTRACT.md §8.1): most files, most decompressed bytes. */
  bundles: { maxFiles: number; maxTotalBytes: number };
  /**
   * The diagnostics pool (docs/isolation.md "Diagnostics pool"): threads at most, threads kept warm (at most
   * `threads`), requests that may wait beyond the busy threads, longest wait in ms, time budget of one request in ms,
   * heap of one thread in MiB, and how long a thread beyond the warm ones stays idle in ms.
   */
  compute: ComputeSettings;
  metricsEnabled: boolean;
  adminQueuesEnabled: boolean;
  /** `ADMIN_QUEUES_READ_ONLY`: the queue dashboard shows the queues and refuses every change to them. */
  adminQueuesReadOnly: boolean;
  /**
   * Template renders (docs/isolation.md "Templates"): largest rendered text in KiB of characters, hard wall-clock
   * budget of one render in ms, heap of one render thread in MiB, render threads per process.
   */
  templates: { maxOutputKib: number; renderTimeoutMs: number; renderHeapMib: number; renderThreads: number };
  /** Run storage (docs/storage.md). */
  storage: StorageSettings;
}

/**
 * Run storage (docs/storage.md): the backend and where it keeps objects, what is moved out of Redis and of results
 * into it, how long signed URLs live, how long each leaf is kept, and how often the sweeper runs.
 */
export interface StorageSettings {
  /** `STORAGE_BACKEND`: `fs` (a directory, the default) or `s3` (an S3-compatible bucket). */
  backend: 'fs' | 's3';
  /** `STORAGE_DIR`: the directory of the `fs` backend. */
  dir: string;
  /** `STORAGE_S3_*`: the bucket of the `s3` backend (credentials come from the AWS SDK's default chain). */
  s3: { bucket: string; endpoint?: string; region: string; forcePathStyle: boolean };
  /** A queue job payload larger than this (bytes of JSON) goes to `payloads/` and Redis keeps a reference. */
  payloadOffloadBytes: number;
  /**
   * A `data:` URL in inputs or results longer than this (characters, at least 256: longer than a graph preview) goes to
   * `assets/` or `generated/`.
   */
  inlineMediaMaxBytes: number;
  /** Lifetime of a presigned S3 URL handed to a caller, in seconds. */
  urlTtlSeconds: number;
  /** How long objects of each leaf are kept after they were written, in hours (0: kept until deleted). */
  retentionHours: { assets: number; generated: number; results: number; payloads: number };
  /** Period of the retention sweep, in minutes. */
  sweepMinutes: number;
}

/**
 * Connection caps and time bounds of the API's HTTP server (docs/limits.md "Connections"), all times in ms: most
 * connections open at once (`HTTP_MAX_CONNECTIONS`; one more is closed at once), most from one client address
 * (`HTTP_MAX_CONNECTIONS_PER_IP`, 0: no per-address cap), longest wait for a request's headers and for the whole
 * request (answered 408 and closed past them), and how long an idle keep-alive connection is kept.
 */
export interface HttpServerSettings {
  maxConnections: number;
  maxConnectionsPerIp: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/** Bounds of the diagnostics pool (README "Configuration", `COMPUTE_*`). */
export interface ComputeSettings {
  threads: number;
  warmThreads: number;
  queueMax: number;
  queueDeadlineMs: number;
  timeoutMs: number;
  heapMib: number;
  idleTimeoutMs: number;
  /** Bytes of the diagnostic routes' answer cache, in MiB (`DIAGNOSTIC_CACHE_MIB`; 0 turns it off). */
  answerCacheMib: number;
}

/**
 * Thrown when the configuration cannot make valid settings. The message is one line naming every offending variable or
 * file, `Invalid configuration, refusing to start: <VARIABLE>: <problem>; …`: what a process prints before it exits
 * with status 1 (README.md "Configuration").
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

function authSettings(env: z.infer<typeof ENV_SCHEMA>, problems: string[]): AuthSettings {
  switch (env.AUTH_MODE) {
    case 'api_key':
      if (env.API_KEY) return { mode: 'api_key', apiKey: env.API_KEY };
      problems.push('API_KEY: required when AUTH_MODE=api_key (the bearer token callers must send)');
      return { mode: 'none' };
    case 'jwt':
      if (env.JWT_SECRET_KEY) return { mode: 'jwt', jwtSecret: env.JWT_SECRET_KEY };
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
function threadHeapProblems(env: z.infer<typeof ENV_SCHEMA>, problems: string[]): void {
  const needed = THREAD_HEAP_PER_BODY_MIB * env.MAX_REQUEST_BODY_MIB + THREAD_HEAP_BASE_MIB;
  if (env.COMPUTE_HEAP_MIB < needed)
    problems.push(
      `COMPUTE_HEAP_MIB: must be at least ${needed} (${THREAD_HEAP_PER_BODY_MIB} × MAX_REQUEST_BODY_MIB + ${THREAD_HEAP_BASE_MIB}): a diagnostics thread decodes a whole body at once, and an allocation its heap cannot hold stops the process, not the thread`,
    );
}

/** The operator key's problems: too short, or equal to a tenant credential or to the JWT signing secret. */
function operatorKeyProblems(env: z.infer<typeof ENV_SCHEMA>, problems: string[]): void {
  const key = env.OPERATOR_API_KEY;
  if (key === undefined) return;
  if (key.length < MIN_OPERATOR_KEY_LENGTH)
    problems.push(`OPERATOR_API_KEY: must be at least ${MIN_OPERATOR_KEY_LENGTH} characters (openssl rand -hex 32)`);
  if (key === env.API_KEY || key === env.JWT_SECRET_KEY)
    problems.push(
      'OPERATOR_API_KEY: must differ from API_KEY and JWT_SECRET_KEY (the operator credential is never a tenant credential or a signing secret)',
    );
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
  const env = parsed.data;
  const problems: string[] = [];
  const auth = authSettings(env, problems);
  operatorKeyProblems(env, problems);
  threadHeapProblems(env, problems);
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS)
    problems.push(
      `HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (${env.HTTP_REQUEST_TIMEOUT_MS}): the headers are part of the request`,
    );
  if (env.STORAGE_BACKEND === 's3' && !env.STORAGE_S3_BUCKET)
    problems.push('STORAGE_S3_BUCKET: required when STORAGE_BACKEND=s3 (the bucket run objects are kept in)');
  if (problems.length > 0) throw new SettingsError(problems);
  return {
    port: env.PORT,
    host: env.HOST,
    http: {
      maxConnections: env.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerIp: env.HTTP_MAX_CONNECTIONS_PER_IP,
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    logLevel: env.LOG_LEVEL,
    auth,
    operatorApiKey: env.OPERATOR_API_KEY,
    serviceEnv: env.SERVICE_ENV,
    gatewayApiKey: env.SERVICE_GATEWAY_API_KEY,
    maxRequestBodyMib: env.MAX_REQUEST_BODY_MIB,
    maxMthdsFileKib: env.MAX_MTHDS_FILE_KIB,
    maxJsonDepth: env.MAX_JSON_DEPTH,
    maxJsonValues: env.MAX_JSON_VALUES,
    errorDisclosure: env.ERROR_DISCLOSURE,
    errorDocsUrl: env.ERROR_DOCS_URL,
    methodCache: {
      dir: env.METHOD_CACHE_DIR,
      maxClones: env.MAX_METHOD_CACHE_CLONES,
      maxTotalKib: env.MAX_METHOD_CACHE_TOTAL_KIB,
      maxAgeHours: env.MAX_METHOD_CACHE_AGE_HOURS,
      sweepMinutes: env.METHOD_CACHE_SWEEP_MINUTES,
      packageMemoryKib: env.METHOD_PACKAGE_MEMORY_KIB,
    },
    methodRef: {
      allowedHosts: env.METHOD_REF_ALLOWED_HOSTS,
      cloneUrlTemplate: env.METHOD_REF_CLONE_URL_TEMPLATE,
      allowPrivateHosts: env.METHOD_REF_ALLOW_PRIVATE_HOSTS,
      gitTimeoutMs: env.METHOD_GIT_TIMEOUT_MS,
      resolveTtlSeconds: env.METHOD_REF_RESOLVE_TTL_SECONDS,
      headResolveTtlSeconds: env.METHOD_REF_HEAD_RESOLVE_TTL_SECONDS,
    },
    fetchLimits: {
      maxPackageFiles: env.SERVICE_MAX_FETCHED_PACKAGE_FILES,
      maxPackageTotalKib: env.SERVICE_MAX_FETCHED_PACKAGE_TOTAL_KIB,
      maxScannedManifests: env.SERVICE_MAX_SCANNED_MANIFESTS,
      maxManifestFileKib: env.SERVICE_MAX_MANIFEST_FILE_KIB,
    },
    inference: {
      profile: env.INFERENCE_PROFILE,
      timeoutMs: env.INFERENCE_TIMEOUT_MS,
      maxRetries: env.INFERENCE_MAX_RETRIES,
      mockLatencyMs: env.MOCK_INFERENCE_LATENCY_MS,
      rateLimitWaitMs: env.INFERENCE_RATE_LIMIT_WAIT_MS,
      rateLimitWindowSeconds: env.INFERENCE_RATE_LIMIT_WINDOW_SECONDS,
    },
    serviceConfigDir: env.SERVICE_CONFIG_DIR,
    queue: {
      redisUrl: env.REDIS_URL,
      prefix: env.QUEUE_PREFIX,
      executeTimeoutMs: env.EXECUTE_TIMEOUT_MS,
      runRecordTtlSeconds: env.RUN_RECORD_TTL_SECONDS,
      runMaxAttempts: env.RUN_MAX_ATTEMPTS,
    },
    runLifecycle: {
      maxRecordsInMemory: env.RUN_RECORDS_MAX_IN_MEMORY,
      maxBytesInMemory: env.RUN_RECORDS_MAX_IN_MEMORY_MIB * 1024 * 1024,
      maxEventsPerRun: env.RUN_EVENTS_MAX_PER_RUN,
      maxEventStreams: env.RUN_EVENT_STREAMS_MAX,
      eventStreamIdleMs: env.RUN_EVENT_STREAM_IDLE_MS,
      eventStreamHeartbeatMs: env.RUN_EVENT_STREAM_HEARTBEAT_MS,
    },
    worker: {
      concurrency: env.WORKER_CONCURRENCY,
      lockDurationMs: env.WORKER_LOCK_DURATION_MS,
      shutdownGraceMs: env.WORKER_SHUTDOWN_GRACE_MS,
      metricsPort: env.WORKER_METRICS_PORT,
    },
    fanOut: {
      batchMaxParallel: env.BATCH_MAX_PARALLEL,
      enabled: env.RUN_FAN_OUT,
      workerConcurrency: env.WORKER_CHILD_CONCURRENCY,
    },
    runMaxPipes: env.RUN_MAX_PIPES,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    quarantine: {
      heapMib: env.RUN_QUARANTINE_HEAP_MIB,
      timeoutMs: env.RUN_QUARANTINE_TIMEOUT_MS,
      concurrency: env.RUN_QUARANTINE_CONCURRENCY,
    },
    checkpoints: { maxBytes: env.STEP_CHECKPOINT_MAX_BYTES },
    callbacks: {
      allowPrivateHosts: env.CALLBACK_ALLOW_PRIVATE_HOSTS,
      timeoutMs: env.CALLBACK_TIMEOUT_MS,
      maxAttempts: env.CALLBACK_MAX_ATTEMPTS,
      backoffMs: env.CALLBACK_BACKOFF_MS,
    },
    documents: {
      maxBytes: env.DOCUMENT_MAX_MIB * 1024 * 1024,
      timeoutMs: env.DOCUMENT_FETCH_TIMEOUT_MS,
      allowPrivateHosts: env.DOCUMENT_ALLOW_PRIVATE_HOSTS,
      maxRedirects: env.DOCUMENT_MAX_REDIRECTS,
    },
    bundles: { maxFiles: env.MAX_BUNDLE_FILES, maxTotalBytes: env.MAX_BUNDLE_TOTAL_KIB * 1024 },
    compute: {
      threads: env.COMPUTE_THREADS,
      warmThreads: Math.min(env.COMPUTE_WARM_THREADS ?? env.COMPUTE_THREADS, env.COMPUTE_THREADS),
      queueMax: env.COMPUTE_QUEUE_MAX,
      queueDeadlineMs: env.COMPUTE_QUEUE_DEADLINE_MS,
      timeoutMs: env.COMPUTE_TIMEOUT_MS,
      heapMib: env.COMPUTE_HEAP_MIB,
      idleTimeoutMs: env.COMPUTE_IDLE_TIMEOUT_MS,
      answerCacheMib: env.DIAGNOSTIC_CACHE_MIB,
    },
    metricsEnabled: env.METRICS_ENABLED,
    adminQueuesEnabled: env.ADMIN_QUEUES_ENABLED,
    adminQueuesReadOnly: env.ADMIN_QUEUES_READ_ONLY,
    templates: {
      maxOutputKib: env.TEMPLATE_MAX_OUTPUT_KIB,
      renderTimeoutMs: env.TEMPLATE_RENDER_TIMEOUT_MS,
      renderHeapMib: env.TEMPLATE_RENDER_HEAP_MIB,
      renderThreads: env.TEMPLATE_RENDER_THREADS,
    },
    storage: {
      backend: env.STORAGE_BACKEND,
      dir: env.STORAGE_DIR,
      s3: {
        bucket: env.STORAGE_S3_BUCKET ?? '',
        ...(env.STORAGE_S3_ENDPOINT ? { endpoint: env.STORAGE_S3_ENDPOINT } : {}),
        region: env.STORAGE_S3_REGION,
        forcePathStyle: env.STORAGE_S3_FORCE_PATH_STYLE,
      },
      payloadOffloadBytes: env.STORAGE_PAYLOAD_OFFLOAD_KIB * 1024,
      inlineMediaMaxBytes: env.STORAGE_INLINE_MEDIA_MAX_BYTES,
      urlTtlSeconds: env.STORAGE_URL_TTL_SECONDS,
      retentionHours: {
        assets: env.STORAGE_RETENTION_ASSETS_HOURS,
        generated: env.STORAGE_RETENTION_GENERATED_HOURS,
        results: env.STORAGE_RETENTION_RESULTS_HOURS,
        payloads: env.STORAGE_RETENTION_PAYLOADS_HOURS,
      },
      sweepMinutes: env.STORAGE_SWEEP_MINUTES,
    },
  };
}
