/**
 * Cost per run over real HTTP, in direct and queue mode (docs/inference.md#prices and #run-budget, docs/run-events.md
 * "Usage and cost"): a fake OpenAI-compatible server on 127.0.0.1 answers every call with 1000 input and 2500 output
 * tokens, so each call of `gpt-4o-mini` (0.15 / 0.6 USD per million tokens) costs 0.00165 USD. A run reports its usage
 * and cost on its result, status, results, events and `GET /v1/runs/{id}/usage` (to its owner only), the process
 * counts the cost in `mthds_inference_cost_usd_total`, and a `max_cost_usd` budget stops the run before the call that
 * would exceed it.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { meteredBackend, selectInferenceBackend } from '../../shared/inference/index.js';
import { createLogger, Metrics } from '../../shared/observability/index.js';
import { testSettings } from '../helpers/config-dir.js';
import { completion, type FakeOpenAiServer, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { JWT_ENVIRONMENT, signTestJwt } from '../helpers/jwt.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp, sharedDiagnostics } from '../helpers/test-app.js';

/** Three PipeLLM steps on `gpt-4o-mini`, one after the other. */
const STEPS_BUNDLE = `
domain = "costly"
main_pipe = "three_steps"

[pipe.three_steps]
type = "PipeSequence"
description = "Draft, review, polish"
inputs = { topic = "Text" }
output = "Text"
steps = [
  { pipe = "draft", result = "drafted" },
  { pipe = "review", result = "reviewed" },
  { pipe = "polish", result = "polished" },
]

[pipe.draft]
type = "PipeLLM"
description = "Draft"
inputs = { topic = "Text" }
output = "Text"
model = "gpt-4o-mini"
prompt = "Draft a line on $topic."

[pipe.review]
type = "PipeLLM"
description = "Review"
inputs = { drafted = "Text" }
output = "Text"
model = "gpt-4o-mini"
prompt = "Review $drafted."

[pipe.polish]
type = "PipeLLM"
description = "Polish"
inputs = { reviewed = "Text" }
output = "Text"
model = "gpt-4o-mini"
prompt = "Polish $reviewed."
`;

const RUN = { mthds_contents: [STEPS_BUNDLE], inputs: { topic: 'tea' } };
/** USD of one call: 1000 input tokens at 0.15 and 2500 output tokens at 0.6 per million. */
const CALL_COST = 0.00165;
/**
 * A budget for two calls: each call is estimated at its few prompt tokens plus 4096 output tokens (no max_tokens is
 * set) at 0.6 per million, about 0.002458 USD; after two calls (0.0033 spent) the third would exceed 0.005.
 */
const TWO_CALLS_BUDGET = 0.005;

function answerWithUsage(fake: FakeOpenAiServer): void {
  fake.respondWith(() => {
    const reply = completion('fine words');
    (reply.body as { usage: object }).usage = { prompt_tokens: 1000, completion_tokens: 2500, total_tokens: 3500 };
    return reply;
  });
}

function figures(calls: number) {
  return { calls, input_tokens: 1000 * calls, output_tokens: 2500 * calls, unpriced_calls: 0 };
}

function expectCost(actual: { cost_usd: number | null }, calls: number): void {
  expect(actual.cost_usd)
    .to.be.a('number')
    .and.closeTo(CALL_COST * calls, 1e-12);
}

describe('cost per run over HTTP', function () {
  this.timeout(60000);
  let fake: FakeOpenAiServer;
  const provider = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.baseUrl, INFERENCE_MAX_RETRIES: '0' });

  beforeEach(async () => {
    fake = await startFakeOpenAiServer();
    answerWithUsage(fake);
  });

  afterEach(async () => {
    await fake.close();
  });

  describe('in direct mode', () => {
    let app: Express;
    let metrics: Metrics;

    beforeEach(() => {
      const environment = provider();
      const settings = testSettings(environment);
      const routed = selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment);
      metrics = new Metrics();
      app = createApp({
        settings,
        logger: createLogger('silent', 'test'),
        inference: meteredBackend(routed, metrics),
        modelDeck: routed.deck,
        metrics,
        diagnostics: sharedDiagnostics(environment),
      });
    });

    it('should report the usage and cost of a run, in total, by model and by pipe, everywhere', async () => {
      const executed = await request(app).post('/v1/execute').send(RUN).expect(200);
      expect(fake.requests).to.have.length(3);
      const usage = executed.body.usage;
      expect(usage.total).to.include(figures(3));
      expectCost(usage.total, 3);
      expect(Object.keys(usage.by_model)).to.deep.equal(['gpt-4o-mini']);
      expectCost(usage.by_model['gpt-4o-mini'], 3);
      expect(Object.keys(usage.by_pipe)).to.deep.equal(['draft', 'review', 'polish']);
      for (const pipe of ['draft', 'review', 'polish']) {
        expect(usage.by_pipe[pipe]).to.include(figures(1));
        expectCost(usage.by_pipe[pipe], 1);
      }
      for (const record of executed.body.pipe_output.tokens_usages) expect(record.cost).to.be.closeTo(CALL_COST, 1e-12);
      const runId = executed.body.pipeline_run_id as string;
      const read = await request(app).get(`/v1/runs/${runId}/usage`).expect(200);
      expect(read.body).to.deep.equal({ pipeline_run_id: runId, status: 'COMPLETED', usage });
      expect((await request(app).get(`/v1/runs/${runId}/status`).expect(200)).body.usage).to.deep.equal(usage);
      expect((await request(app).get(`/v1/runs/${runId}/results`).expect(200)).body.usage).to.deep.equal(usage);
      const text = (await request(app).get('/metrics').expect(200)).text;
      const line = text.split('\n').find((entry) => entry.startsWith('mthds_inference_cost_usd_total{'));
      expect(line).to.match(/^mthds_inference_cost_usd_total\{backend="openai",model="gpt-4o-mini"\} [0-9.e-]+$/);
      expect(Number(line!.split(' ')[1])).to.be.closeTo(CALL_COST * 3, 1e-12);
    });

    it('should stop a run before the call that would exceed its max_cost_usd (422, not retryable)', async () => {
      const refused = await request(app)
        .post('/v1/execute')
        .send({ ...RUN, max_cost_usd: TWO_CALLS_BUDGET })
        .expect(422);
      expect(fake.requests).to.have.length(2);
      expect(refused.body).to.include({
        error_type: 'RunBudgetExceededError',
        error_domain: 'input',
        retryable: false,
      });
      expect(refused.body.detail).to.match(
        /^The run's budget max_cost_usd = 0\.005 USD would be exceeded: 0\.0033 USD spent so far, and the next LLM call of pipe 'polish' to model 'gpt-4o-mini' may cost up to 0\.002458\d* USD \(docs\/inference\.md#run-budget\)\. The call was not made\./,
      );
      const runId = refused.headers['x-pipeline-run-id'] as string;
      const read = await request(app).get(`/v1/runs/${runId}/usage`).expect(200);
      expect(read.body.status).to.equal('FAILED');
      expect(read.body.usage.total).to.include(figures(2));
      expectCost(read.body.usage.total, 2);
      const status = await request(app).get(`/v1/runs/${runId}/status`).expect(200);
      expect(status.body.error).to.include({ error_type: 'RunBudgetExceededError', pipe_code: 'polish' });
    });

    it('should run within a budget that covers every call', async () => {
      const executed = await request(app)
        .post('/v1/execute')
        .send({ ...RUN, max_cost_usd: 0.01 })
        .expect(200);
      expect(fake.requests).to.have.length(3);
      expectCost(executed.body.usage.total, 3);
    });

    it('should refuse a max_cost_usd that is not a positive number (422 ValidationError)', async () => {
      for (const budget of [0, -1, '1']) {
        const refused = await request(app)
          .post('/v1/execute')
          .send({ ...RUN, max_cost_usd: budget })
          .expect(422);
        expect(refused.body.error_type, String(budget)).to.equal('ValidationError');
        expect(refused.body.detail).to.include('max_cost_usd');
      }
      expect(fake.requests).to.have.length(0);
    });
  });

  describe('with a model that has no price', () => {
    it('should report the cost as unknown, and refuse its calls under a budget', async () => {
      const app = buildTestApp();
      const executed = await request(app).post('/v1/execute').send(RUN).expect(200);
      expect(executed.body.usage.total).to.include({ calls: 3, cost_usd: null, unpriced_calls: 3 });
      const refused = await request(app)
        .post('/v1/execute')
        .send({ ...RUN, max_cost_usd: 1 })
        .expect(422);
      expect(refused.body.error_type).to.equal('RunBudgetExceededError');
      expect(refused.body.detail).to.include("model 'gpt-4o-mini' has no price for LLM calls");
    });
  });

  describe('in queue mode', () => {
    let deployment: QueueDeployment;
    let alice: string;
    let bob: string;

    beforeEach(async () => {
      deployment = startQueueDeployment({ environment: { ...JWT_ENVIRONMENT, ...provider() } });
      alice = await signTestJwt({ user_id: 'alice' });
      bob = await signTestJwt({ user_id: 'bob' });
    });

    afterEach(async () => {
      await deployment.close();
    });

    const as = (token: string) => ({ Authorization: `Bearer ${token}` });
    const ended = (runId: string) =>
      pollUntil(
        () => request(deployment.app).get(`/v1/runs/${runId}/status`).set(as(alice)),
        (response) => response.body.status === 'COMPLETED' || response.body.status === 'FAILED',
      );

    it('should report a started run’s usage to its owner only, and 404 alike for foreign and unknown runs', async () => {
      await request(deployment.app)
        .post('/v1/start')
        .set(as(alice))
        .send({ ...RUN, pipeline_run_id: 'priced-1' })
        .expect(202);
      const status = await ended('priced-1');
      expect(status.body.status).to.equal('COMPLETED');
      expect(status.body.usage.total).to.include(figures(3));
      expectCost(status.body.usage.total, 3);
      const read = await request(deployment.app).get('/v1/runs/priced-1/usage').set(as(alice)).expect(200);
      expect(read.body).to.deep.equal({ pipeline_run_id: 'priced-1', status: 'COMPLETED', usage: status.body.usage });
      const foreign = await request(deployment.app).get('/v1/runs/priced-1/usage').set(as(bob)).expect(404);
      const unknown = await request(deployment.app).get('/v1/runs/never-run/usage').set(as(bob)).expect(404);
      expect(foreign.body).to.include({ error_type: 'RunNotFoundError', code: 'run_not_found' });
      expect(foreign.body.detail).to.equal(unknown.body.detail.replace('never-run', 'priced-1'));
    });

    it('should stop a started run at its budget, and report what it spent on its events', async () => {
      await request(deployment.app)
        .post('/v1/start')
        .set(as(alice))
        .send({ ...RUN, pipeline_run_id: 'capped-1', max_cost_usd: TWO_CALLS_BUDGET })
        .expect(202);
      const status = await ended('capped-1');
      expect(fake.requests).to.have.length(2);
      expect(status.body.status).to.equal('FAILED');
      expect(status.body.error).to.include({ error_type: 'RunBudgetExceededError', retryable: false });
      expect(status.body.usage.total).to.include(figures(2));
      const events = await request(deployment.app).get('/v1/runs/capped-1/events').set(as(alice)).expect(200);
      const frames = events.text
        .split('\n\n')
        .filter((frame) => frame.includes('data: '))
        .map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as Record<string, unknown>);
      const finishedPipes = frames.filter((frame) => frame['type'] === 'pipe:finished');
      expect(finishedPipes.map((frame) => (frame['run_usage'] as { calls: number }).calls)).to.deep.equal([1, 2]);
      const terminal = frames.at(-1)!;
      expect(terminal).to.include({ type: 'run:finished', status: 'FAILED' });
      expect(terminal['usage']).to.deep.equal(status.body.usage);
    });
  });
});
