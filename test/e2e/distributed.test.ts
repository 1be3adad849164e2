import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startCallbackReceiver } from '../helpers/callback-receiver.js';
import { QUEUE_CONFIG_DIR } from '../helpers/config-dir.js';
import { sample } from '../helpers/corpus.js';
import { pollUntil } from '../helpers/poll.js';
import {
  completionCount,
  completionLine,
  completionLines,
  freePort,
  type ServiceProcess,
  spawnApi,
  spawnService,
} from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, uniquePrefix } from '../helpers/redis.js';

const hello = (runId: string) => ({
  pipeline_run_id: runId,
  mthds_contents: [sample('hello_greeting')],
  inputs: { name: runId },
});

async function post(
  baseUrl: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function status(baseUrl: string, runId: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/runs/${runId}/status`, { signal: AbortSignal.timeout(5000) }).catch(
    () => undefined,
  );
  if (!response?.ok) return `HTTP ${response?.status ?? 'error'}`;
  return ((await response.json()) as { status: string }).status;
}

describe('distributed runs (spawned API and worker processes, real Redis)', function () {
  this.timeout(120000);
  const started: ServiceProcess[] = [];
  let prefix: string;

  beforeEach(() => {
    prefix = uniquePrefix();
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
    await deletePrefix(prefix).catch(() => undefined);
  });

  /** The test Redis's variables, unless `extra` names a Redis of the test's own (plain: no TLS files). */
  function environment(extra: Record<string, string> = {}): Record<string, string> {
    const redis = 'REDIS_URL' in extra ? {} : TEST_REDIS_ENVIRONMENT;
    return { ...redis, QUEUE_PREFIX: prefix, SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR, ...extra };
  }

  async function startApi(extra: Record<string, string> = {}): Promise<string> {
    const { api, baseUrl } = await spawnApi(environment(extra));
    started.push(api);
    return baseUrl;
  }

  async function startWorker(extra: Record<string, string> = {}): Promise<ServiceProcess> {
    const worker = spawnService('worker', environment(extra));
    started.push(worker);
    await worker.waitForLog((line) => line['msg'] === 'worker started');
    return worker;
  }

  it('should run a started run on a worker, serve its result and deliver a signed callback', async () => {
    const secret = 'e2e-secret';
    const receiver = await startCallbackReceiver([200]);
    try {
      const shared = { COMPLETION_CALLBACK_SECRET: secret, CALLBACK_ALLOW_PRIVATE_HOSTS: 'true' };
      const baseUrl = await startApi(shared);
      await startWorker(shared);
      const ack = await post(baseUrl, '/v1/start', { ...hello('with-callback'), callback_urls: [receiver.url] });
      expect(ack.status).to.equal(202);
      await pollUntil(
        () => status(baseUrl, 'with-callback'),
        (value) => value === 'COMPLETED',
      );
      const results = (await (await fetch(`${baseUrl}/v1/runs/with-callback/results`)).json()) as {
        main_stuff: { text: string };
      };
      expect(results.main_stuff.text).to.include('with-callback');
      const [delivery] = await receiver.successes(1);
      expect(delivery!.headers['x-completion-signature']).to.equal(
        createHmac('sha256', secret).update('with-callback').digest('hex'),
      );
      const [, timestamp, digest] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(
        String(delivery!.headers['x-completion-signature-256']),
      )!;
      expect(digest).to.equal(createHmac('sha256', secret).update(`${timestamp}.${delivery!.body}`).digest('hex'));
    } finally {
      await receiver.close();
    }
  });

  it('should share 200 runs between two workers and complete them all', async () => {
    const baseUrl = await startApi();
    const workers = [
      await startWorker({ MOCK_INFERENCE_LATENCY_MS: '20' }),
      await startWorker({ MOCK_INFERENCE_LATENCY_MS: '20' }),
    ];
    const ids = Array.from({ length: 200 }, (_, index) => `run-${index}`);
    for (let batch = 0; batch < ids.length; batch += 25) {
      const acks = await Promise.all(ids.slice(batch, batch + 25).map((id) => post(baseUrl, '/v1/start', hello(id))));
      expect(acks.map((ack) => ack.status)).to.deep.equal(Array(acks.length).fill(202));
    }
    await pollUntil(
      async () => completionCount(workers),
      (count) => count >= 200,
      90000,
      200,
    );
    expect(completionLines(workers[0]!).length).to.be.above(0);
    expect(completionLines(workers[1]!).length).to.be.above(0);
    const states = await Promise.all(ids.map((id) => status(baseUrl, id)));
    expect(new Set(states)).to.deep.equal(new Set(['COMPLETED']));
  });

  it('should complete a run on another worker when its worker is killed mid-run', async function () {
    this.timeout(240000);
    const baseUrl = await startApi();
    const slow = { MOCK_INFERENCE_LATENCY_MS: '3000', WORKER_LOCK_DURATION_MS: '1000' };
    const doomed = await startWorker(slow);
    expect((await post(baseUrl, '/v1/start', hello('survivor'))).status).to.equal(202);
    await doomed.waitForLog((line) => line['msg'] === 'run:started' && line['pipeline_run_id'] === 'survivor');
    await doomed.stop('SIGKILL');
    const rescuer = await startWorker(slow);
    await pollUntil(
      () => status(baseUrl, 'survivor'),
      (value) => value === 'COMPLETED',
      60000,
      200,
    );
    const retake = await completionLine(rescuer, 'survivor');
    expect(completionLines(rescuer)).to.have.length(1);
    expect(completionLines(doomed)).to.have.length(0);
    expect(retake, 'the retaken attempt runs in quarantine').to.include({ quarantined: true });
  });

  it('should finish an in-flight run on SIGTERM before exiting', async () => {
    const baseUrl = await startApi();
    const worker = await startWorker({ MOCK_INFERENCE_LATENCY_MS: '1500' });
    await post(baseUrl, '/v1/start', hello('graceful'));
    await worker.waitForLog((line) => line['msg'] === 'run:started');
    expect(await worker.stop('SIGTERM')).to.equal(0);
    expect(completionLines(worker)).to.have.length(1);
    expect(await status(baseUrl, 'graceful')).to.equal('COMPLETED');
  });

  describe('when Redis goes away and comes back', () => {
    let redis: ChildProcess | undefined;
    let redisDir: string;
    let redisPort: number;

    async function startRedis(): Promise<void> {
      redis = spawn(
        'redis-server',
        [
          '--port',
          String(redisPort),
          '--bind',
          '127.0.0.1',
          '--dir',
          redisDir,
          '--appendonly',
          'yes',
          '--appendfsync',
          'always',
          '--save',
          '',
        ],
        { stdio: 'ignore' },
      );
      await pollUntil(
        async () => {
          const probe = await fetch(`http://127.0.0.1:${redisPort}`).then(
            () => true,
            (error: Error) => !String(error.cause ?? error).includes('ECONNREFUSED'),
          );
          return probe;
        },
        Boolean,
        10000,
        50,
      );
    }

    async function stopRedis(): Promise<void> {
      const exited = new Promise((resolve) => redis!.once('exit', resolve));
      redis!.kill('SIGTERM');
      await exited;
      redis = undefined;
    }

    beforeEach(async () => {
      redisDir = mkdtempSync(join(tmpdir(), 'mthds-e2e-redis-'));
      redisPort = await freePort();
      await startRedis();
    });

    afterEach(async () => {
      if (redis) await stopRedis();
      rmSync(redisDir, { recursive: true, force: true });
    });

    it('should answer problem documents during the outage, recover, and lose no acknowledged run', async () => {
      const url = `redis://127.0.0.1:${redisPort}`;
      const baseUrl = await startApi({ REDIS_URL: url });
      // a job Redis moved to active just as it stopped never reaches the worker (the reply is lost): stall recovery
      // retakes it once its lock expires, so the lock is short here
      await startWorker({ REDIS_URL: url, MOCK_INFERENCE_LATENCY_MS: '300', WORKER_LOCK_DURATION_MS: '3000' });
      const acknowledged: string[] = [];
      for (const id of ['before-1', 'before-2', 'before-3']) {
        if ((await post(baseUrl, '/v1/start', hello(id))).status === 202) acknowledged.push(id);
      }
      await stopRedis();
      // a request during the outage must not hang: it is answered, where a hanging one would meet post()'s deadline
      const during = await post(baseUrl, '/v1/start', hello('during'));
      expect(during.status, JSON.stringify(during.body)).to.equal(503);
      expect(during.body).to.include({ error_type: 'QueueUnavailableError', retryable: true });
      expect((await fetch(`${baseUrl}/health`)).status).to.equal(200);
      await startRedis();
      // a new id for each try: a refused try may still have left its id behind
      let tries = 0;
      const after = await pollUntil(
        () => post(baseUrl, '/v1/start', hello(`after-${++tries}`)),
        (response) => response.status === 202,
        30000,
        250,
      );
      acknowledged.push(String(after.body['pipeline_run_id']));
      for (const id of acknowledged)
        await pollUntil(
          () => status(baseUrl, id),
          (value) => value === 'COMPLETED',
          30000,
          200,
        );
      expect(acknowledged.length).to.equal(4);
    });
  });
});
