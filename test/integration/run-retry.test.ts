/**
 * Retrying a run (`POST /v1/runs/{runId}/retry`; docs/checkpoints.md#retrying-a-run, docs/api.md#retrying-a-run) on a
 * queue deployment (real Redis, in-process workers) with a control plane on PostgreSQL, calling a fake
 * OpenAI-compatible provider on 127.0.0.1 that counts the calls: a 4-step sequence failed at step 3 by a provider 400
 * (not retryable), retried once the provider is fixed, replays steps 1 and 2 from the original's checkpoints and makes
 * exactly 2 more calls; the history links the two runs. A fanned-out batch replays the items that finished (checkpointed
 * by their child jobs), and a run whose payload was offloaded to storage is retried alike.
 * A run in another state is 409, another owner's run 404, a run whose submission is no longer kept 410, and a
 * deployment without a queue 400.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { openObjectStore, runObjectName } from '../../shared/storage/index.js';
import { closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { draftsBundle } from '../helpers/drafts-bundle.js';
import {
  completion,
  type FakeOpenAiServer,
  type FakeReply,
  providerError,
  type RecordedRequest,
  startFakeOpenAiServer,
} from '../helpers/fake-openai-server.js';
import { FILING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { testRedis } from '../helpers/redis.js';
import { buildTestApp } from '../helpers/test-app.js';

const ADMIN = 'retry-admin-key';
const BUNDLE = draftsBundle('drafts');

/** The user prompt of a request to the fake. */
function promptOf(request: RecordedRequest): string {
  return String(request.body.messages?.at(-1)?.content ?? '');
}

describe('retrying a run (queue mode, fake provider, PostgreSQL)', function () {
  this.timeout(120_000);
  afterEach(closeControlPlaneApps);
  const suite = useTestControlPlane();
  let fake: FakeOpenAiServer;
  let deployment: QueueDeployment;
  let redis: Redis;
  /** The provider's fault of the moment: its reply to a call it refuses, or undefined for a call it answers. */
  let fault: (prompt: string) => FakeReply | undefined = () => undefined;
  let acme: { key: string; org: string };
  let globex: { key: string; org: string };

  const as = (token: string) => ({
    get: (path: string) => request(deployment.app).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object, headers: Record<string, string> = {}) =>
      request(deployment.app).post(path).set('Authorization', `Bearer ${token}`).set(headers).send(body),
  });

  async function organization(name: string): Promise<{ key: string; org: string }> {
    const admin = as(ADMIN);
    const org = (await admin.post('/v1/organizations', { name }).expect(201)).body.org_id as string;
    const issued = await admin.post('/v1/pipelex-api-keys', { label: 'ci', organization_id: org }).expect(201);
    return { key: issued.body.api_key as string, org };
  }

  async function ended(token: string, runId: string): Promise<request.Response> {
    return pollUntil(
      () => as(token).get(`/v1/runs/${runId}/status`),
      (response) => response.body.status === 'COMPLETED' || response.body.status === 'FAILED',
      60_000,
    );
  }

  before(async () => {
    fake = await startFakeOpenAiServer();
    fake.respondWith((call) => fault(promptOf(call)) ?? completion(`answer ${fake.requests.length}`));
    deployment = startQueueDeployment({
      environment: {
        AUTH_MODE: 'api_key',
        API_KEY: ADMIN,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: fake.baseUrl,
        INFERENCE_MAX_RETRIES: '0',
      },
      controlPlane: suite.database,
    });
    redis = testRedis({ maxRetriesPerRequest: 1 });
    acme = await organization('Acme');
    globex = await organization('Globex');
  });

  after(async () => {
    await deployment.close();
    await fake.close();
    redis.disconnect();
  });

  it('should replay the 2 finished steps of a run failed at step 3 and make exactly 2 more calls', async () => {
    fault = (prompt) =>
      prompt.startsWith('Draft three') ? providerError(400, 'Invalid prompt: flagged by policy') : undefined;
    const started = await as(acme.key)
      .post('/v1/start', { mthds_contents: [BUNDLE], inputs: { topic: 'tea' } })
      .expect(202);
    const original = started.body.pipeline_run_id as string;
    const failed = await ended(acme.key, original);
    expect(failed.body.status).to.equal('FAILED');
    expect(failed.body.error).to.include({
      error_type: 'LLMCompletionError',
      retryable: false,
      pipe_code: 'draft_three',
    });
    expect(fake.requests, 'steps 1 and 2 answered, step 3 refused').to.have.length(3);
    const checkpoints = `${deployment.settings.queue.prefix}:checkpoints:${original}`;
    expect(await redis.hlen(checkpoints), 'the failed run keeps its 2 checkpoints').to.equal(2);
    expect(await redis.ttl(checkpoints), 'for RUN_CHECKPOINT_RETENTION_HOURS (48)').to.be.within(47 * 3600, 48 * 3600);

    fault = () => undefined;
    const key = { 'Idempotency-Key': 'retry-once' };
    const retried = await as(acme.key).post(`/v1/runs/${original}/retry`, undefined, key).expect(202);
    const retry = retried.body.pipeline_run_id as string;
    expect(retry).to.be.a('string').and.not.equal(original);
    expect(retried.body).to.deep.equal({
      pipeline_run_id: retry,
      created_at: retried.body.created_at,
      state: 'STARTED',
      pipeline_state: 'STARTED',
      finished_at: null,
      workflow_id: retry,
      main_stuff_name: null,
      pipe_output: null,
      pipe_structures: null,
      method_provenance: null,
      retry_of: original,
    });
    expect(Date.parse(retried.body.created_at)).to.be.above(Date.parse(failed.body.created_at));
    const replayed = await as(acme.key).post(`/v1/runs/${original}/retry`, undefined, key).expect(202);
    expect(replayed.headers['idempotent-replayed']).to.equal('true');
    expect(replayed.text, 'the same key starts nothing more').to.equal(retried.text);

    expect((await ended(acme.key, retry)).body.status).to.equal('COMPLETED');
    expect(fake.requests, 'steps 1 and 2 are replayed, steps 3 and 4 called').to.have.length(5);
    const prompts = fake.requests.slice(3).map(promptOf);
    expect(prompts[0]).to.match(/^Draft three after answer 2/);
    expect(prompts[1]).to.match(/^Draft four after answer 4/);
    const results = await as(acme.key).get(`/v1/runs/${retry}/results`).expect(200);
    expect(results.body.main_stuff).to.deep.equal({ text: 'answer 5' });
    const texts = Object.fromEntries(
      Object.entries(results.body.working_memory.root as Record<string, { content: { text: string } }>).map(
        ([name, stuff]) => [name, stuff.content.text],
      ),
    );
    expect(texts).to.include({ one: 'answer 1', two: 'answer 2', three: 'answer 4', four: 'answer 5' });
    expect(results.body.usage.total.calls, 'the retry reports the calls it paid').to.equal(2);
    expect(await redis.exists(`${deployment.settings.queue.prefix}:checkpoints:${retry}`)).to.equal(0);

    const detail = await as(acme.key).get(`/v1/runs/${retry}`).expect(200);
    expect(detail.body).to.deep.include({
      pipeline_run_id: retry,
      status: 'COMPLETED',
      retry_of: original,
      retries: [],
      mthds_contents: [BUNDLE],
      inputs: { topic: 'tea' },
    });
    expect(detail.body.usage).to.include({ calls: 2 });
    const originalDetail = await as(acme.key).get(`/v1/runs/${original}`).expect(200);
    expect(originalDetail.body).to.deep.include({ status: 'FAILED', retry_of: null, retries: [retry] });
    const listed = await as(acme.key).get('/v1/runs?state=COMPLETED').expect(200);
    const item = listed.body.items.find((run: { pipeline_run_id: string }) => run.pipeline_run_id === retry);
    expect(item).to.include({ retry_of: original, status: 'COMPLETED' });

    const again = await as(acme.key).post(`/v1/runs/${retry}/retry`).expect(409);
    expect(again.body).to.include({
      error_type: 'RunNotRetryableError',
      code: 'run_not_retryable',
      run_state: 'COMPLETED',
      retryable: false,
    });
    expect(again.body.detail).to.equal(
      `Run '${retry}' is COMPLETED: only a FAILED, CANCELLED or TIMED_OUT run can be retried.`,
    );
    const foreign = await as(globex.key).post(`/v1/runs/${original}/retry`).expect(404);
    expect(foreign.body).to.include({ error_type: 'RunNotFoundError', code: 'run_not_found' });
    const unknown = await as(globex.key).post('/v1/runs/no-such-run/retry').expect(404);
    expect(unknown.body.detail).to.equal(foreign.body.detail.replace(original, 'no-such-run'));
    expect(fake.requests, 'no refused retry called the provider').to.have.length(5);
  });

  it('should retry a run whose payload was offloaded to storage, replaying its finished step', async () => {
    const name = 'Ada '.repeat(20_000);
    const started = await as(acme.key)
      .post('/v1/start', { mthds_contents: [FILING_BUNDLE], inputs: { name } })
      .expect(202);
    const original = started.body.pipeline_run_id as string;
    expect((await ended(acme.key, original)).body.error).to.include({ error_type: 'PipeFeatureNotSupportedError' });
    const calls = fake.requests.length;
    const retried = await as(acme.key).post(`/v1/runs/${original}/retry`).expect(202);
    const retry = retried.body.pipeline_run_id as string;
    const failed = await ended(acme.key, retry);
    expect(failed.body.error, 'the same submission fails alike').to.include({
      error_type: 'PipeFeatureNotSupportedError',
      pipe_code: 'file_greeting',
    });
    expect(fake.requests, 'the greeting is replayed, not called again').to.have.length(calls);
    const detail = await pollUntil(
      () => as(acme.key).get(`/v1/runs/${retry}`),
      (response) => response.body.status === 'FAILED',
    );
    expect(detail.body).to.deep.include({ retry_of: original, inputs: { name } });
  });

  it('should replay the items of a fanned-out batch that finished, and call only the one that failed', async () => {
    // the third item is refused once the three others were answered, so their children checkpoint them
    let answered = 0;
    let othersAnswered: () => void = () => undefined;
    const refusal = new Promise<void>((resolve) => {
      othersAnswered = resolve;
    });
    fault = (prompt) => {
      if (prompt.includes('topic c')) return { ...providerError(400, 'Invalid prompt'), after: refusal };
      answered += 1;
      if (answered === 3) othersAnswered();
      return undefined;
    };
    const topics = ['topic a', 'topic b', 'topic c', 'topic d'];
    const started = await as(acme.key)
      .post('/v1/start', { mthds_contents: [BUNDLE], pipe_code: 'each', inputs: { topics } })
      .expect(202);
    const original = started.body.pipeline_run_id as string;
    expect((await ended(acme.key, original)).body.status).to.equal('FAILED');
    const checkpoints = `${deployment.settings.queue.prefix}:checkpoints:${original}`;
    // the children of the answered items may still be keeping their checkpoints as the run fails
    const kept = await pollUntil(
      () => redis.hkeys(checkpoints),
      (keys) => keys.length === 3,
    );
    expect([...kept].sort()).to.deep.equal(['main/b0', 'main/b1', 'main/b3']);

    fault = () => undefined;
    const calls = fake.requests.length;
    const retried = await as(acme.key).post(`/v1/runs/${original}/retry`).expect(202);
    const retry = retried.body.pipeline_run_id as string;
    expect((await ended(acme.key, retry)).body.status).to.equal('COMPLETED');
    expect(fake.requests.slice(calls).map(promptOf), 'only the refused item is called again').to.have.length(1);
    expect(promptOf(fake.requests.at(-1)!)).to.include('topic c');
    const results = await as(acme.key).get(`/v1/runs/${retry}/results`).expect(200);
    expect(results.body.main_stuff.items).to.have.length(4);
    expect(results.body.usage.total.calls).to.equal(1);
  });

  it('should answer 410 for a failed run whose submission is no longer kept', async () => {
    const started = await as(globex.key)
      .post('/v1/start', { mthds_contents: [FILING_BUNDLE], inputs: { name: 'Ada' } })
      .expect(202);
    const runId = started.body.pipeline_run_id as string;
    expect((await ended(globex.key, runId)).body.status).to.equal('FAILED');
    const store = openObjectStore(deployment.settings.storage);
    try {
      await store.delete({ scope: globex.org, leaf: 'payloads', name: runObjectName(runId, 'json') });
    } finally {
      store.close();
    }
    const gone = await as(globex.key).post(`/v1/runs/${runId}/retry`).expect(410);
    expect(gone.body).to.include({
      error_type: 'RunSubmissionUnavailableError',
      code: 'run_submission_unavailable',
      retryable: false,
    });
  });

  it('should answer 400 StartRequiresAsyncOrchestration on a deployment without a queue', async () => {
    const refused = await request(buildTestApp()).post('/v1/runs/any-run/retry').expect(400);
    expect(refused.body).to.include({ error_type: 'StartRequiresAsyncOrchestration', retryable: false });
    expect(refused.body.detail).to.match(/^A retry is a queued run: POST \/v1\/runs\/\{id\}\/retry needs the queue/);
  });
});
