/**
 * Cluster-wide provider rate limits across spawned processes (docs/inference.md#rate-limits): an API and two or three
 * worker processes share one real Redis under a unique prefix and call a fake OpenAI-compatible server on 127.0.0.1
 * that records when each request arrived and was answered. The packaged `backends.toml` is overridden with limits on
 * the OpenAI backend; the per-minute window is shortened to 2 s (`INFERENCE_RATE_LIMIT_WINDOW_SECONDS`).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { mostWithin } from '../helpers/arrivals.js';
import { sample } from '../helpers/corpus.js';
import {
  completion,
  type FakeOpenAiServer,
  providerError,
  startFakeOpenAiServer,
} from '../helpers/fake-openai-server.js';
import { pollUntil } from '../helpers/poll.js';
import { completionCount, completionLines, type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, testRedis, uniquePrefix } from '../helpers/redis.js';

const PACKAGED_BACKENDS = new URL('../../shared/inference/defaults/backends.toml', import.meta.url);
const WINDOW_SECONDS = 2;
const WINDOW_MS = WINDOW_SECONDS * 1000;

/** Wait until the workers have logged `count` completed runs in all: a record turns COMPLETED a moment before. */
async function loggedCompletions(workers: ServiceProcess[], count: number): Promise<void> {
  await pollUntil(
    () => Promise.resolve(completionCount(workers)),
    (total) => total >= count,
    10000,
    20,
  );
}

async function start(baseUrl: string, runId: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      pipeline_run_id: runId,
      mthds_contents: [sample('hello_greeting')],
      inputs: { name: runId },
    }),
    signal: AbortSignal.timeout(30000),
  });
  await response.body?.cancel();
  return response.status;
}

async function status(baseUrl: string, runId: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/runs/${runId}/status`, { signal: AbortSignal.timeout(5000) }).catch(
    () => undefined,
  );
  if (!response?.ok) return `HTTP ${response?.status ?? 'error'}`;
  return ((await response.json()) as { status: string }).status;
}

describe('provider rate limits across spawned workers (real Redis, fake provider)', function () {
  this.timeout(120000);
  const started: ServiceProcess[] = [];
  let prefix: string;
  let configDir: string;
  let fake: FakeOpenAiServer;

  beforeEach(async () => {
    prefix = uniquePrefix();
    fake = await startFakeOpenAiServer();
    configDir = mkdtempSync(join(tmpdir(), 'mthds-e2e-rate-limits-'));
    writeFileSync(join(configDir, 'api_override.toml'), 'orchestration_mode = "bullmq"\n');
    mkdirSync(join(configDir, 'inference'));
    limitOpenAi('{ max_concurrent = 2 }');
  });

  /** Override the packaged `backends.toml` with these `rate_limits` on the OpenAI backend. */
  function limitOpenAi(rateLimits: string): void {
    const backends = readFileSync(PACKAGED_BACKENDS, 'utf8').replace(
      '[openai]\n',
      `[openai]\nrate_limits = ${rateLimits}\n`,
    );
    writeFileSync(join(configDir, 'inference', 'backends.toml'), backends);
  }

  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
    await fake.close();
    await deletePrefix(prefix).catch(() => undefined);
    rmSync(configDir, { recursive: true, force: true });
  });

  const environment = {
    get value(): Record<string, string> {
      return {
        ...TEST_REDIS_ENVIRONMENT,
        QUEUE_PREFIX: prefix,
        SERVICE_CONFIG_DIR: configDir,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: fake.baseUrl,
      };
    },
  };

  async function deployment(
    workerCount = 2,
    extra: Record<string, string> = {},
  ): Promise<{ baseUrl: string; workers: ServiceProcess[] }> {
    const { api, baseUrl } = await spawnApi({ ...environment.value, ...extra });
    started.push(api);
    const workers = Array.from({ length: workerCount }, () =>
      spawnService('worker', { ...environment.value, ...extra }),
    );
    started.push(...workers);
    for (const worker of workers) await worker.waitForLog((line) => line['msg'] === 'worker started');
    return { baseUrl, workers };
  }

  async function allCompleted(baseUrl: string, ids: string[]): Promise<void> {
    await pollUntil(
      async () => (await Promise.all(ids.map((id) => status(baseUrl, id)))).join(','),
      (states) => states === ids.map(() => 'COMPLETED').join(','),
      60000,
      200,
    );
  }

  it('should keep the two workers together under the backend concurrency cap', async () => {
    fake.respondWith(() => ({ ...completion('Hello, slowly.'), delayMs: 300 }));
    const { baseUrl, workers } = await deployment();
    const ids = Array.from({ length: 12 }, (_, index) => `capped-${index}`);
    expect(await Promise.all(ids.map((id) => start(baseUrl, id)))).to.deep.equal(ids.map(() => 202));
    await allCompleted(baseUrl, ids);
    expect(fake.requests).to.have.length(12);
    const edges = fake.requests.flatMap((request) => [
      { at: request.receivedAt, step: 1 },
      { at: request.answeredAt!, step: -1 },
    ]);
    edges.sort((a, b) => a.at - b.at || a.step - b.step);
    let inFlight = 0;
    let most = 0;
    for (const edge of edges) {
      inFlight += edge.step;
      most = Math.max(most, inFlight);
    }
    expect(most).to.equal(2);
    await loggedCompletions(workers, 12);
    expect(completionCount(workers)).to.equal(12);
  });

  it('should pause the backend for both workers after a 429 with Retry-After: 2', async () => {
    const { baseUrl } = await deployment();
    fake.replyNext(providerError(429, 'Rate limit reached.', { 'retry-after': '2' }));
    expect(await start(baseUrl, 'first')).to.equal(202);
    await pollUntil(
      async () => fake.requests[0]?.answeredAt,
      (answeredAt) => answeredAt !== undefined,
      30000,
      5,
    );
    const throttledAt = fake.requests[0]!.answeredAt!;
    // the other runs start once the worker that saw the 429 has set the pause in Redis
    const redis = testRedis();
    try {
      await pollUntil(
        () => redis.keys(`${prefix}:ratelimit:pause*`),
        (keys) => keys.length > 0,
        30000,
        5,
      );
    } finally {
      redis.disconnect();
    }
    const others = ['second', 'third', 'fourth', 'fifth'];
    expect(await Promise.all(others.map((id) => start(baseUrl, id)))).to.deep.equal(others.map(() => 202));
    await allCompleted(baseUrl, ['first', ...others]);
    expect(fake.requests).to.have.length(6);
    for (const request of fake.requests.slice(1)) expect(request.receivedAt - throttledAt).to.be.at.least(1950);
  });

  it('should let three workers pushing 200 runs make at most the limit in any window of the backend', async function () {
    this.timeout(180000);
    const limit = 25;
    limitOpenAi(`{ requests_per_minute = ${limit} }`);
    const extra = { INFERENCE_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS), WORKER_CONCURRENCY: '4' };
    const { baseUrl } = await deployment(0, extra);
    // The runs are queued before any worker starts, so this process (which records the arrivals) is idle while the
    // calls are made. No warm-up: a call counts from the moment its request leaves, after its SDK has loaded.
    const ids = Array.from({ length: 200 }, (_, index) => `limited-${index}`);
    expect(await Promise.all(ids.map((id) => start(baseUrl, id)))).to.deep.equal(ids.map(() => 202));
    const workers = Array.from({ length: 3 }, () => spawnService('worker', { ...environment.value, ...extra }));
    started.push(...workers);
    await pollUntil(
      async () => fake.requests.length,
      (count) => count >= ids.length,
      150000,
      500,
    );
    await allCompleted(baseUrl, ids);
    expect(fake.requests).to.have.length(ids.length);
    const arrivals = fake.requests.map((request) => request.receivedAt);
    expect(mostWithin(arrivals, WINDOW_MS)).to.be.at.most(limit);
    expect(Math.max(...arrivals) - Math.min(...arrivals)).to.be.at.least((ids.length / limit - 1) * WINDOW_MS);
    await loggedCompletions(workers, ids.length);
    for (const worker of workers) expect(completionLines(worker).length).to.be.above(0);
    expect(completionCount(workers)).to.equal(ids.length);
  });
});
