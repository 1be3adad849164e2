/**
 * Cluster-wide provider rate limits (`npm run bench`; docs/inference.md#rate-limits): three simulated workers — each
 * its own routed backend and Redis connection on one prefix — push calls through an OpenAI backend limited to
 * `BENCH_RATE_LIMIT` requests per window (a window shortened to 2 s) against a fake OpenAI-compatible server on
 * 127.0.0.1 that records when each call arrived. Reports the most calls the provider saw in any window against the
 * limit, the calls per window achieved over the run against the ideal (the limit per window plus the send allowance),
 * the throttled calls' waits, and the silence after a 429 with `Retry-After: 2`. Writes `bench/rate-limits.md`.
 * Needs Redis (`TEST_REDIS_URL`, default `redis://127.0.0.1:6379`).
 */
import { writeFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import {
  type InferenceConfig,
  loadInferenceConfig,
  type RateLimitOptions,
  type RoutedBackend,
} from '../shared/inference/index.js';
import { createRoutedBackend } from '../shared/inference/routed-backend.js';
import { mostWithin } from '../test/helpers/arrivals.js';
import { type FakeOpenAiServer, providerError, startFakeOpenAiServer } from '../test/helpers/fake-openai-server.js';
import { quantile } from '../test/helpers/raw-http.js';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../test/helpers/redis.js';

/** Requests per window of the limited backend. */
const LIMIT = Number(process.env['BENCH_RATE_LIMIT'] ?? 30);
/** Window of the limit, in seconds. */
const WINDOW_SECONDS = 2;
const WINDOW_MS = WINDOW_SECONDS * 1000;
/** How long an admitted call counts past its window (scope-limiter.ts `SEND_ALLOWANCE_MS`). */
const SEND_ALLOWANCE_MS = 1000;
/** Simulated workers. */
const WORKERS = 3;
/** Calls pushed: five windows' worth. */
const CALLS = LIMIT * 5;
const MODEL = 'gpt-4o-mini';

interface Cluster {
  workers: RoutedBackend[];
  /** Each admitted call's wait for admission, in ms. */
  waits: number[];
  /** Calls a limit held at the head of their process's line (`mthds_inference_throttled_calls_total`). */
  held: { count: number };
  close(): Promise<void>;
}

function cluster(fake: FakeOpenAiServer, limits: boolean): Cluster {
  const prefix = uniquePrefix();
  const config: InferenceConfig = loadInferenceConfig(undefined, {
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: fake.baseUrl,
  });
  if (limits) config.backends['openai']!.rate_limits = { requests_per_minute: LIMIT };
  const waits: number[] = [];
  const held = { count: 0 };
  const observer: NonNullable<RateLimitOptions['observer']> = {
    admitted: (_backend, _model, waitedMs, reasons) => {
      waits.push(waitedMs);
      if (reasons.size > 0) held.count += 1;
    },
    timedOut: () => undefined,
    paused: () => undefined,
  };
  const connections = Array.from({ length: WORKERS }, () => new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 }));
  const workers = connections.map((client) =>
    createRoutedBackend({
      config,
      timeoutMs: 10000,
      maxRetries: 2,
      mockLatencyMs: 0,
      rateLimits: {
        store: { kind: 'redis', client, keyPrefix: prefix },
        waitMs: 120000,
        windowSeconds: WINDOW_SECONDS,
        observer,
      },
    }),
  );
  return {
    workers,
    waits,
    held,
    close: async () => {
      for (const connection of connections) connection.disconnect();
      await deletePrefix(prefix);
    },
  };
}

const ask = (backend: RoutedBackend) =>
  backend.generateText({ pipeCode: 'bench', modelRef: MODEL, userPrompt: 'Say hello.' });

/** Load each worker's provider SDK, so that no measured call is admitted long before it reaches the provider. */
async function warm(workers: readonly RoutedBackend[], fake: FakeOpenAiServer): Promise<void> {
  await Promise.all(workers.map(ask));
  fake.requests.splice(0);
}

async function throughput(): Promise<string[]> {
  const fake = await startFakeOpenAiServer();
  const { workers, waits, held, close } = cluster(fake, true);
  try {
    await warm(workers, fake);
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + SEND_ALLOWANCE_MS));
    waits.splice(0);
    held.count = 0;
    await Promise.all(Array.from({ length: CALLS }, (_, index) => ask(workers[index % WORKERS]!)));
    const arrivals = fake.requests.map((request) => request.receivedAt);
    const span = Math.max(...arrivals) - Math.min(...arrivals);
    const windows = span / WINDOW_MS;
    const achieved = (arrivals.length - LIMIT) / windows;
    const ideal = (LIMIT * WINDOW_MS) / (WINDOW_MS + SEND_ALLOWANCE_MS);
    const idealMedianMs = Math.floor(CALLS / 2 / LIMIT) * (WINDOW_MS + SEND_ALLOWANCE_MS);
    return [
      `| most calls the provider saw in any ${WINDOW_SECONDS} s window | ${mostWithin(arrivals, WINDOW_MS)} | limit ${LIMIT} |`,
      `| calls per window achieved (after the first window's burst) | ${achieved.toFixed(1)} | ideal ${ideal.toFixed(1)} (${LIMIT} per ${WINDOW_SECONDS + SEND_ALLOWANCE_MS / 1000} s: the window plus the send allowance) |`,
      `| calls made / span of their arrivals | ${arrivals.length} / ${(span / 1000).toFixed(2)} s | ${CALLS} pushed by ${WORKERS} workers at once |`,
      `| calls held by the limit at the head of their worker's line (metric) | ${held.count} of ${CALLS} | the others waited behind them |`,
      `| admission wait p50 / p99 / max | ${(quantile(waits, 0.5) / 1000).toFixed(2)} / ${(quantile(waits, 0.99) / 1000).toFixed(2)} / ${(Math.max(...waits) / 1000).toFixed(2)} s | ideal p50 ${(idealMedianMs / 1000).toFixed(2)} s |`,
    ];
  } finally {
    await fake.close();
    await close();
  }
}

async function pause(): Promise<string[]> {
  const fake = await startFakeOpenAiServer();
  const { workers, close } = cluster(fake, false);
  try {
    await warm(workers, fake);
    fake.replyNext(providerError(429, 'Rate limit reached.', { 'retry-after': '2' }));
    const first = ask(workers[0]!);
    while (fake.requests[0]?.answeredAt === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    const throttledAt = fake.requests[0].answeredAt;
    // The calls start once the 429 has reached its worker (a call that left before cannot be held back).
    await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all([first, ...workers.flatMap((worker) => [ask(worker), ask(worker)])]);
    const next = Math.min(...fake.requests.slice(1).map((request) => request.receivedAt));
    const during = fake.requests.filter(
      (request) => request.receivedAt > throttledAt && request.receivedAt < throttledAt + 2000,
    );
    return [
      `| calls to the backend from ${WORKERS} workers within 2 s of a 429 with \`Retry-After: 2\` | ${during.length} | 0 |`,
      `| first call after it | ${((next - throttledAt) / 1000).toFixed(2)} s later | ≥ 2 s |`,
    ];
  } finally {
    await fake.close();
    await close();
  }
}

async function main(): Promise<void> {
  const rows = [...(await throughput()), ...(await pause())];
  const table = [
    `# Provider rate limits (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${WORKERS} simulated workers on one Redis, ${LIMIT} requests per ${WINDOW_SECONDS} s sliding window)`,
    '',
    '| measure | value | bound |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  writeFileSync(new URL('./rate-limits.md', import.meta.url), table);
  process.stdout.write(`${table}\n`);
}

await main();
