/**
 * Cancel and deadlines in direct mode (docs/cancellation.md): the run executes in the API process, its record and
 * events in memory (no Redis). A cancel aborts it in the process — the fake provider (a real HTTP server on 127.0.0.1)
 * sees its call's connection closed — and the blocking `/v1/execute` answers the stop: 409 `RunCancelledError`, or 504
 * `RunTimedOutError` past its `timeout_seconds`. The history (a real PostgreSQL control plane) finds the run's id.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { buildControlPlaneApp, closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { completion, type FakeOpenAiServer, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { buildTestApp } from '../helpers/test-app.js';

/** How long a held provider call would take: far longer than any test. */
const HELD_MS = 30_000;

describe('cancel and deadlines in direct mode (in-process runs, fake provider)', function () {
  this.timeout(60_000);
  const suite = useTestControlPlane();
  let fake: FakeOpenAiServer;
  let app: Express;

  beforeEach(async () => {
    fake = await startFakeOpenAiServer();
    fake.respondWith(() => ({ ...completion('late'), delayMs: HELD_MS }));
    app = buildControlPlaneApp(suite.database, {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.baseUrl,
      INFERENCE_MAX_RETRIES: '0',
    });
  });

  afterEach(async () => {
    await closeControlPlaneApps();
    await fake.close();
  });

  /** The id of the caller's one run in flight, from the history. */
  async function runningId(): Promise<string> {
    const page = await pollUntil(
      async () => (await request(app).get('/v1/runs?state=RUNNING').expect(200)).body as { items: unknown[] },
      (listed) => listed.items.length === 1,
    );
    return (page.items[0] as { pipeline_run_id: string }).pipeline_run_id;
  }

  it('should abort a run in the API process and answer its /v1/execute with 409 RunCancelledError', async () => {
    const executing = request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } })
      .then((response) => response);
    await pollUntil(
      async () => fake.requests.length,
      (count) => count === 1,
    );
    const runId = await runningId();
    const cancelled = await request(app).post(`/v1/runs/${runId}/cancel`).expect(202);
    expect(cancelled.body).to.deep.include({ status: 'CANCELLED', state: 'CANCELLED', workflow_id: null });
    const answered = await executing;
    expect(answered.status).to.equal(409);
    expect(answered.headers['x-pipeline-run-id']).to.equal(runId);
    expect(answered.body).to.deep.include({
      title: 'Run cancelled',
      status: 409,
      detail: `Run '${runId}' was cancelled by its owner before it ended.`,
      error_type: 'RunCancelledError',
      code: 'run_cancelled',
      error_domain: 'input',
      retryable: false,
    });
    await pollUntil(
      async () => fake.requests[0]?.closedAt,
      (closedAt) => closedAt !== undefined,
    );
    expect(fake.requests).to.have.length(1);
    const read = (await request(app).get(`/v1/runs/${runId}/status`).expect(200)).body;
    expect(read).to.deep.include({ status: 'CANCELLED', state: 'CANCELLED' });
    expect(read.error).to.include({ error_type: 'RunCancelledError', pipe_code: 'greet_person' });
    const metrics = (await request(app).get('/metrics').expect(200)).text;
    expect(metrics).to.include('mthds_runs_finished_total{state="CANCELLED"} 1');
    expect(metrics).to.not.include('mthds_runs_finished_total{state="FAILED"}');
    expect(metrics).to.not.include('mthds_runs_rejected_total{mode="direct",error_type="RunCancelledError"}');
  });

  it('should cancel runs in flight by the bulk cancel', async () => {
    const executing = request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } })
      .then((response) => response);
    await pollUntil(
      async () => fake.requests.length,
      (count) => count === 1,
    );
    await runningId();
    expect((await request(app).post('/v1/runs/cancel').send({ state: 'RUNNING' }).expect(200)).body).to.deep.equal({
      cancelled: 1,
    });
    expect((await executing).status).to.equal(409);
  });

  it('should stop a run over its timeout_seconds and answer its /v1/execute with 504 RunTimedOutError', async () => {
    const answered = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' }, timeout_seconds: 1 });
    expect(answered.status).to.equal(504);
    expect(answered.body).to.deep.include({ error_type: 'RunTimedOutError', code: 'run_timed_out', retryable: false });
    const runId = answered.headers['x-pipeline-run-id'] as string;
    const read = (await request(app).get(`/v1/runs/${runId}/status`).expect(200)).body;
    expect(read).to.deep.include({ status: 'TIMED_OUT', state: 'TIMED_OUT' });
    await pollUntil(
      async () => fake.requests[0]?.closedAt,
      (closedAt) => closedAt !== undefined,
    );
  });

  it('should, without a control plane, serve the cancel by id but not the bulk cancel (an unknown route)', async () => {
    const bare = buildTestApp();
    const answered = await request(bare)
      .post('/v1/execute')
      .send({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } })
      .expect(200);
    const runId = answered.headers['x-pipeline-run-id'] as string;
    const finished = await request(bare).post(`/v1/runs/${runId}/cancel`).expect(409);
    expect(finished.body).to.deep.include({ error_type: 'RunAlreadyFinishedError', run_status: 'COMPLETED' });
    expect((await request(bare).post('/v1/runs/no-such-run/cancel').expect(404)).body.code).to.equal('run_not_found');
    const bulk = await request(bare).post('/v1/runs/cancel').send({}).expect(404);
    expect(bulk.body).to.include({ error_type: 'NotFound' });
  });
});
