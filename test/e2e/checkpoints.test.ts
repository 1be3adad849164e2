/**
 * Step checkpoints across spawned processes (docs/checkpoints.md): an API and worker processes share one real Redis
 * under a unique prefix and call a fake OpenAI-compatible server on 127.0.0.1 that counts the calls. A worker is
 * SIGKILLed in the middle of a run, between two steps; another worker retakes the run (in quarantine) and replays the
 * finished steps from their checkpoints, so the provider sees each step's call exactly once.
 *
 * How the run is stopped between two steps without a call in flight: the OpenAI backend is limited to N requests per
 * window (docs/inference.md#rate-limits; the window shortened to 12 s by `INFERENCE_RATE_LIMIT_WINDOW_SECONDS`), so
 * once N steps have called, the next one waits in the worker for the window to reopen, and the test kills the worker
 * then — after the N steps' checkpoints are in Redis.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { draftsBundle } from '../helpers/drafts-bundle.js';
import {
  completion,
  type FakeOpenAiServer,
  type FakeReply,
  providerError,
  type RecordedRequest,
  startFakeOpenAiServer,
} from '../helpers/fake-openai-server.js';
import { pollUntil } from '../helpers/poll.js';
import { completionLine, completionLines, type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, testRedis, uniquePrefix } from '../helpers/redis.js';

const PACKAGED_BACKENDS = new URL('../../shared/inference/defaults/backends.toml', import.meta.url);

const BUNDLE = draftsBundle('drafts');

/** The user prompt of a request to the fake. */
function promptOf(request: RecordedRequest): string {
  return String(request.body.messages?.at(-1)?.content ?? '');
}

/**
 * The fake's answer: the request's number (from 1) and the prompt it answers, so a replayed step's output is visibly
 * the one the provider gave.
 */
function answerNamingThePrompt(number: number, request: RecordedRequest): FakeReply {
  return completion(`answer ${number} to: ${promptOf(request).slice(0, 40)}`);
}

async function status(baseUrl: string, runId: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/runs/${runId}/status`, { signal: AbortSignal.timeout(5000) }).catch(
    () => undefined,
  );
  if (!response?.ok) return `HTTP ${response?.status ?? 'error'}`;
  return ((await response.json()) as { status: string }).status;
}

describe('step checkpoints across spawned workers (real Redis, fake provider)', function () {
  this.timeout(240000);
  const started: ServiceProcess[] = [];
  let prefix: string;
  let configDir: string;
  let fake: FakeOpenAiServer;
  let redis: Redis;

  beforeEach(async () => {
    prefix = uniquePrefix();
    fake = await startFakeOpenAiServer();
    fake.respondWith((request) => answerNamingThePrompt(fake.requests.length, request));
    configDir = mkdtempSync(join(tmpdir(), 'mthds-e2e-checkpoints-'));
    writeFileSync(join(configDir, 'api_override.toml'), 'orchestration_mode = "bullmq"\n');
    redis = testRedis({ maxRetriesPerRequest: 1 });
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
    await fake.close();
    await deletePrefix(prefix).catch(() => undefined);
    redis.disconnect();
    rmSync(configDir, { recursive: true, force: true });
  });

  /** Limit the fake's backend to `perMinute` requests per window (12 s here). */
  function limitRequests(perMinute: number): void {
    mkdirSync(join(configDir, 'inference'), { recursive: true });
    const backends = readFileSync(PACKAGED_BACKENDS, 'utf8').replace(
      '[openai]\n',
      `[openai]\nrate_limits = { requests_per_minute = ${perMinute} }\n`,
    );
    writeFileSync(join(configDir, 'inference', 'backends.toml'), backends);
  }

  const environment = (): Record<string, string> => ({
    ...TEST_REDIS_ENVIRONMENT,
    QUEUE_PREFIX: prefix,
    SERVICE_CONFIG_DIR: configDir,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    // a dead worker's run is retaken about a second after it died
    WORKER_LOCK_DURATION_MS: '1000',
    INFERENCE_RATE_LIMIT_WINDOW_SECONDS: '12',
  });

  async function startWorker(): Promise<ServiceProcess> {
    const worker = spawnService('worker', environment());
    started.push(worker);
    await worker.waitForLog((line) => line['msg'] === 'worker started');
    return worker;
  }

  async function startRun(baseUrl: string, body: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${baseUrl}/v1/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mthds_contents: [BUNDLE], ...body }),
      signal: AbortSignal.timeout(30000),
    });
    expect(response.status, await response.text()).to.equal(202);
  }

  /** Kill the worker once `count` steps of the run are checkpointed and the provider answered exactly that many. */
  async function killAfterCheckpoints(worker: ServiceProcess, runId: string, count: number): Promise<void> {
    await pollUntil(
      () => redis.hlen(`${prefix}:checkpoints:${runId}`),
      (kept) => kept >= count,
      60000,
      20,
    );
    expect(fake.requests, 'the next step waits for the rate-limit window').to.have.length(count);
    await worker.stop('SIGKILL');
  }

  async function results(baseUrl: string, runId: string): Promise<Record<string, unknown>> {
    await pollUntil(
      () => status(baseUrl, runId),
      (value) => value === 'COMPLETED' || value === 'FAILED',
      150000,
      250,
    );
    expect(await status(baseUrl, runId)).to.equal('COMPLETED');
    return (await (await fetch(`${baseUrl}/v1/runs/${runId}/results`)).json()) as Record<string, unknown>;
  }

  it('should complete a 4-step sequence killed after step 2 on another worker with 4 inference calls in all', async () => {
    limitRequests(2);
    const { api, baseUrl } = await spawnApi(environment());
    started.push(api);
    const doomed = await startWorker();
    await startRun(baseUrl, { pipeline_run_id: 'four-steps', inputs: { topic: 'tea' } });
    await killAfterCheckpoints(doomed, 'four-steps', 2);
    const rescuer = await startWorker();
    const body = await results(baseUrl, 'four-steps');

    expect(fake.requests, 'steps 1 and 2 are replayed, not called again').to.have.length(4);
    const prompts = fake.requests.map(promptOf);
    expect(prompts.map((prompt) => /Draft (\w+)/.exec(prompt)?.[1])).to.deep.equal(['one', 'two', 'three', 'four']);
    expect(prompts[2], 'step 3 reads the replayed output of step 2').to.include('answer 2 to: ');
    expect(await completionLine(rescuer, 'four-steps')).to.include({ quarantined: true, replayed_steps: 2 });
    expect(completionLines(rescuer, 'four-steps')).to.have.length(1);
    expect((body['main_stuff'] as { text: string }).text).to.match(/^answer 4 to: /);
    expect((body['usage'] as { total: { calls: number } }).total.calls, 'the replayed calls are reported').to.equal(4);
    expect(await redis.exists(`${prefix}:checkpoints:four-steps`), 'dropped once the run finished').to.equal(0);
  });

  it('should make exactly 20 item calls for a 20-item batch interrupted after 12 items', async () => {
    limitRequests(12);
    const { api, baseUrl } = await spawnApi(environment());
    started.push(api);
    const doomed = await startWorker();
    const topics = Array.from({ length: 20 }, (_, index) => `topic ${index}`);
    await startRun(baseUrl, { pipeline_run_id: 'twenty-items', pipe_code: 'each', inputs: { topics } });
    await killAfterCheckpoints(doomed, 'twenty-items', 12);
    const rescuer = await startWorker();
    const body = await results(baseUrl, 'twenty-items');

    // the items fan out (RUN_FAN_OUT, the default): the retake re-attaches to the 12 finished child jobs and reuses
    // their results; the other children are retaken by the rescuer (docs/fan-out.md#retaken-runs)
    expect(fake.requests, 'the 12 finished items are not called again').to.have.length(20);
    const asked = fake.requests.map((request) => /topic \d+/.exec(promptOf(request))?.[0]);
    expect([...asked].sort()).to.deep.equal([...topics].sort());
    expect(await completionLine(rescuer, 'twenty-items')).to.include({ quarantined: true });
    const items = body['main_stuff'] as { text: string }[] | { items: { text: string }[] };
    const texts = (Array.isArray(items) ? items : items.items).map((item) => item.text);
    expect(
      texts.map((text) => /topic (\d+)$/.exec(text)?.[1]),
      'outputs in input order',
    ).to.deep.equal(topics.map((_, index) => String(index)));
  });

  it('should replay the finished steps when a retryable failure is retried in the worker process', async () => {
    let failed = false;
    fake.respondWith((request) => {
      if (!failed && promptOf(request).startsWith('Draft three')) {
        failed = true;
        return providerError(503, 'The server is overloaded.');
      }
      return answerNamingThePrompt(fake.requests.length, request);
    });
    const { api, baseUrl } = await spawnApi(environment());
    started.push(api);
    const worker = spawnService('worker', { ...environment(), INFERENCE_MAX_RETRIES: '0' });
    started.push(worker);
    await worker.waitForLog((line) => line['msg'] === 'worker started');
    await startRun(baseUrl, { pipeline_run_id: 'retried', inputs: { topic: 'tea' } });
    const body = await results(baseUrl, 'retried');

    const asked = fake.requests.map((request) => /Draft (\w+)/.exec(promptOf(request))?.[1]);
    expect(asked, 'the retry calls only steps 3 and 4').to.deep.equal(['one', 'two', 'three', 'three', 'four']);
    const retrying = worker.logs.find((line) => String(line['msg']).startsWith('run:retrying'));
    expect(retrying).to.include({ replayed_steps: 0 });
    expect(await completionLine(worker, 'retried')).to.include({ replayed_steps: 2 });
    expect(completionLines(worker, 'retried')[0]).to.not.have.property('quarantined', true);
    expect((body['main_stuff'] as { text: string }).text).to.match(/^answer 5 to: Draft four after answer 4/);
  });
});
