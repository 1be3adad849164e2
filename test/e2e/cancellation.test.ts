/**
 * Cancel across spawned processes (docs/cancellation.md): an API and two worker processes share one real Redis under
 * a unique prefix; a run blocked on a 30 s call to a fake OpenAI-compatible server on 127.0.0.1 is cancelled through
 * the API, and whichever worker holds it hears the stop on the deployment's channel, aborts the call (the fake sees its
 * connection closed) and makes no other.
 */
import { expect } from 'chai';
import { QUEUE_CONFIG_DIR } from '../helpers/config-dir.js';
import { completion, type FakeOpenAiServer, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, uniquePrefix } from '../helpers/redis.js';

/** What the worker holding a cancelled run logs as its attempt winds down. */
const STOPPED_LINE = 'run:stopped (CANCELLED): the attempt was aborted';

async function call(baseUrl: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('cancel across spawned workers (real Redis, fake provider)', function () {
  this.timeout(120_000);
  const started: ServiceProcess[] = [];
  let prefix: string;
  let fake: FakeOpenAiServer;

  beforeEach(async () => {
    prefix = uniquePrefix();
    fake = await startFakeOpenAiServer();
    fake.respondWith(() => ({ ...completion('late'), delayMs: 30_000 }));
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
    await fake.close();
    await deletePrefix(prefix).catch(() => undefined);
  });

  it('should stop the run on the worker that holds it: its call aborted, no other made, CANCELLED', async () => {
    const environment = {
      ...TEST_REDIS_ENVIRONMENT,
      QUEUE_PREFIX: prefix,
      SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.baseUrl,
      INFERENCE_MAX_RETRIES: '0',
    };
    const { api, baseUrl } = await spawnApi(environment);
    started.push(api);
    const workers = [spawnService('worker', environment), spawnService('worker', environment)];
    started.push(...workers);
    for (const worker of workers) await worker.waitForLog((line) => line['msg'] === 'worker started');
    const runId = 'e2e-cancel-1';
    const acked = await call(baseUrl, 'POST', '/v1/start', {
      mthds_contents: [GREETING_BUNDLE],
      inputs: { name: 'Ada' },
      pipeline_run_id: runId,
    });
    expect(acked.status).to.equal(202);
    await pollUntil(
      async () => fake.requests.length,
      (count) => count === 1,
      60_000,
    );

    const cancelled = await call(baseUrl, 'POST', `/v1/runs/${runId}/cancel`);
    expect(cancelled.status).to.equal(202);
    expect(cancelled.body).to.deep.include({ status: 'CANCELLED', state: 'CANCELLED' });
    await pollUntil(
      async () => fake.requests[0]?.closedAt,
      (closedAt) => closedAt !== undefined,
    );
    const stopped = await pollUntil(
      async () => workers.flatMap((worker) => worker.logs).filter((line) => line['msg'] === STOPPED_LINE),
      (lines) => lines.length > 0,
    );
    expect(stopped).to.have.length(1);
    expect(stopped[0]!['pipeline_run_id']).to.equal(runId);
    expect(fake.requests).to.have.length(1);
    expect((await call(baseUrl, 'GET', `/v1/runs/${runId}/status`)).body).to.deep.include({ status: 'CANCELLED' });
  });
});
