/**
 * The run lifecycle in both orchestration modes, over real HTTP on port 0 (docs/api.md#run-lifecycle,
 * docs/run-events.md): every run gets a record and events; status, results and events serve its owner only; a failed
 * run says why through all three; `/v1/start` refuses up front what `/v1/execute` refuses; event streams end after the
 * terminal event, resume after `Last-Event-ID`, and are bounded.
 */
import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { closeServer } from '../../api/close-server.js';
import { FILING_BUNDLE, GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { JWT_ENVIRONMENT, signTestJwt } from '../helpers/jwt.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { listenOnLoopback } from '../helpers/raw-http.js';
import { RESULTS_MEMBERS } from '../helpers/results-members.js';
import { readEventStream, type SseAnswer } from '../helpers/sse-client.js';
import { buildTestApp } from '../helpers/test-app.js';

const JWT = JWT_ENVIRONMENT;
const greeting = { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } };
const filing = { mthds_contents: [FILING_BUNDLE], inputs: { name: 'Ada' } };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const EVENT_ID = /^\d+-\d+$/;

function signJwt(userId: string): Promise<string> {
  return signTestJwt({ user_id: userId });
}

/** A deployment under test: its app, listening on loopback, and two callers. */
interface Harness {
  app: Express;
  server: Server;
  docsUrl: string;
  alice: string;
  bob: string;
}

function caller(harness: Harness, token: string) {
  const auth = { Authorization: `Bearer ${token}` };
  return {
    execute: (body: object) => request(harness.app).post('/v1/execute').set(auth).send(body),
    start: (body: object) => request(harness.app).post('/v1/start').set(auth).send(body),
    status: (runId: string) => request(harness.app).get(`/v1/runs/${runId}/status`).set(auth),
    results: (runId: string) => request(harness.app).get(`/v1/runs/${runId}/results`).set(auth),
    usage: (runId: string) => request(harness.app).get(`/v1/runs/${runId}/usage`).set(auth),
    events: (runId: string, headers: Record<string, string> = {}, stopAfter?: number) =>
      readEventStream(harness.server, `/v1/runs/${runId}/events`, { ...auth, ...headers }, stopAfter),
  };
}

function types(answer: SseAnswer): string[] {
  return answer.frames.map((frame) => frame.event);
}

/** The error report of the filing run: its PipeFunc fails, and the report names it. */
function filingError(docsUrl: string) {
  return {
    error_type: 'PipeFeatureNotSupportedError',
    message:
      "PipeFunc 'file_greeting': function 'file_greeting' is not registered in this runtime (registered: none); functions are never loaded from bundles.",
    title: 'Pipe feature not supported',
    type_uri: `${docsUrl}/errors/pipe-feature-not-supported-error/`,
    error_domain: 'config',
    retryable: false,
    pipe_code: 'file_greeting',
  };
}

/** What every mode must show of a failed run: status, results and events all say why. */
async function expectFailedRunExplained(harness: Harness, runId: string): Promise<void> {
  const alice = caller(harness, harness.alice);
  const error = filingError(harness.docsUrl);
  const status = await alice.status(runId).expect(200);
  expect(status.body).to.include({ pipeline_run_id: runId, status: 'FAILED', state: 'FAILED' });
  expect(status.body.error).to.deep.equal(error);
  expect(status.body.progress).to.deep.equal({ current_pipe: null, finished_pipes: 1 });
  const results = await alice.results(runId).expect(409);
  expect(results.body).to.deep.equal({
    type: `${harness.docsUrl}/errors/run-result-unavailable-error/`,
    title: 'Run result unavailable',
    status: 409,
    detail: `Run finished with status FAILED: ${error.message}`,
    instance: `/v1/runs/${runId}/results`,
    request_id: results.body.request_id,
    error_type: 'RunResultUnavailableError',
    code: 'run_result_unavailable',
    error_domain: 'input',
    retryable: false,
    run_status: 'FAILED',
    error,
  });
  const priced = { calls: 1, cost_usd: null, unpriced_calls: 1 };
  expect(status.body.usage.total).to.include(priced);
  expect(status.body.usage.by_pipe.greet_person).to.include(priced);
  const usage = await alice.usage(runId).expect(200);
  expect(usage.body).to.deep.equal({ pipeline_run_id: runId, status: 'FAILED', usage: status.body.usage });
  const events = await alice.events(runId);
  expect(events.ended).to.equal(true);
  expect(types(events)).to.deep.equal([
    'run:started',
    'pipe:started',
    'pipe:started',
    'pipe:finished',
    'pipe:started',
    'pipe:failed',
    'pipe:failed',
    'run:finished',
  ]);
  const [, sequence, greet, greeted, file, fileFailed, sequenceFailed, finished] = events.frames.map(
    (frame) => frame.data as Record<string, unknown>,
  );
  expect(sequence).to.include({ step: 1, parent_step: null, pipe_code: 'greet_and_file', pipe_type: 'PipeSequence' });
  expect(greet).to.include({ step: 2, parent_step: 1, pipe_code: 'greet_person', output_concept: 'native.Text' });
  expect(greeted?.['token_usage']).to.have.keys('input_tokens', 'output_tokens');
  expect(file).to.include({ step: 3, parent_step: 1, pipe_code: 'file_greeting', pipe_type: 'PipeFunc' });
  expect(fileFailed?.['error']).to.deep.equal({ error_type: error.error_type, message: error.message });
  expect(sequenceFailed).to.include({ step: 1, pipe_code: 'greet_and_file' });
  expect(finished).to.deep.equal({
    type: 'run:finished',
    pipeline_run_id: runId,
    at: finished?.['at'],
    status: 'FAILED',
    finished_pipes: 1,
    error,
    usage: status.body.usage,
  });
}

/** Another caller reads nothing of alice's run: every lifecycle route answers as for an unknown id. */
async function expectHiddenFromBob(harness: Harness, runId: string): Promise<void> {
  const bob = caller(harness, harness.bob);
  const unknown = await bob.status('never-used').expect(404);
  for (const read of [bob.status(runId), bob.results(runId), bob.usage(runId)]) {
    const response = await read.expect(404);
    expect(response.body).to.include({ error_type: 'RunNotFoundError', code: 'run_not_found' });
    expect(response.body.detail).to.equal(unknown.body.detail.replace('never-used', runId));
  }
  const events = await bob.events(runId);
  expect(events.status).to.equal(404);
  expect(events.headers['content-type']).to.equal('application/problem+json');
  expect(JSON.parse(events.body)).to.include({
    error_type: 'RunNotFoundError',
    code: 'run_not_found',
    instance: `/v1/runs/${runId}/events`,
  });
}

describe('the run lifecycle over HTTP', function () {
  this.timeout(60000);
  const harness = {} as Harness;

  before(async () => {
    harness.alice = await signJwt('alice');
    harness.bob = await signJwt('bob');
  });

  describe('in direct mode (runs in the API process, records in memory)', () => {
    before(async () => {
      harness.app = buildTestApp(JWT);
      harness.server = await listenOnLoopback(createServer(harness.app));
      harness.docsUrl = '';
    });
    after(async () => {
      await closeServer(harness.server, 1000);
    });

    it("should serve a completed execute's status, results and events, named by X-Pipeline-Run-Id", async () => {
      const alice = caller(harness, harness.alice);
      const executed = await alice.execute(greeting).expect(200);
      const runId = executed.body.pipeline_run_id as string;
      expect(executed.headers['x-pipeline-run-id']).to.equal(runId);
      const status = await alice.status(runId).expect(200);
      expect(Object.keys(status.body)).to.deep.equal([
        'pipeline_run_id',
        'pipe_code',
        'status',
        'state',
        'workflow_id',
        'created_at',
        'started_at',
        'finished_at',
        'degraded',
        'progress',
        'usage',
      ]);
      expect(status.body).to.deep.include({
        pipeline_run_id: runId,
        pipe_code: null,
        status: 'COMPLETED',
        state: 'COMPLETED',
        workflow_id: null,
        finished_at: executed.body.finished_at,
        degraded: false,
        progress: { current_pipe: null, finished_pipes: 1 },
        usage: executed.body.usage,
      });
      const results = await alice.results(runId).expect(200);
      const validated = await request(harness.app)
        .post('/v1/validate')
        .set({ Authorization: `Bearer ${harness.alice}` })
        .send({ mthds_contents: [GREETING_BUNDLE], views: ['input_form', 'output_form'] })
        .expect(200);
      expect(Object.keys(results.body)).to.deep.equal(RESULTS_MEMBERS);
      expect(results.body).to.deep.equal({
        pipeline_run_id: runId,
        main_stuff: executed.body.pipe_output.working_memory.root.main_stuff.content,
        working_memory: executed.body.pipe_output.working_memory,
        graph_spec: executed.body.pipe_output.graph_spec,
        graph_assembly_error: null,
        pipe_io_contracts: validated.body.pipe_io_contracts,
        input_form: validated.body.input_form,
        output_form: validated.body.output_form,
        pipe_io_artifacts_error: null,
        tokens_usages: executed.body.pipe_output.tokens_usages,
        usage_assembly_error: null,
        pipe_output: executed.body.pipe_output,
        usage: executed.body.usage,
      });
      expect(results.body.main_stuff).to.have.keys('text');
      const usageRead = await alice.usage(runId).expect(200);
      expect(usageRead.body).to.deep.equal({ pipeline_run_id: runId, status: 'COMPLETED', usage: executed.body.usage });
      const events = await alice.events(runId);
      expect(events.status).to.equal(200);
      expect(events.headers['content-type']).to.equal('text/event-stream; charset=utf-8');
      expect(events.headers['cache-control']).to.equal('no-cache, no-transform');
      expect(events.ended).to.equal(true);
      expect(types(events)).to.deep.equal(['run:started', 'pipe:started', 'pipe:finished', 'run:finished']);
      for (const frame of events.frames) expect(frame.id).to.match(EVENT_ID);
      const [started, , finished, ended] = events.frames.map((frame) => frame.data as Record<string, unknown>);
      expect(started).to.deep.equal({
        type: 'run:started',
        pipeline_run_id: runId,
        at: started?.['at'],
        pipe_code: null,
        attempt: 1,
      });
      expect(started?.['at']).to.match(ISO);
      const usage = executed.body.pipe_output.tokens_usages[0].nb_tokens_by_category;
      expect(finished).to.deep.equal({
        type: 'pipe:finished',
        pipeline_run_id: runId,
        at: finished?.['at'],
        step: 1,
        parent_step: null,
        pipe_code: 'greet_person',
        pipe_type: 'PipeLLM',
        output_concept: 'native.Text',
        duration_ms: finished?.['duration_ms'],
        token_usage: { input_tokens: usage.input, output_tokens: usage.output },
        run_usage: executed.body.usage.total,
      });
      expect(finished?.['duration_ms']).to.be.a('number').and.at.least(0);
      expect(ended).to.include({ type: 'run:finished', status: 'COMPLETED', finished_pipes: 1, error: null });
      expect(ended?.['usage']).to.deep.equal(executed.body.usage);
    });

    it('should show why a failed execute failed through status, results and events', async () => {
      const failed = await caller(harness, harness.alice).execute(filing).expect(501);
      expect(failed.body.error_type).to.equal('PipeFeatureNotSupportedError');
      await expectFailedRunExplained(harness, failed.headers['x-pipeline-run-id'] as string);
    });

    it('should hide a run from another caller, events included (404 run_not_found)', async () => {
      const executed = await caller(harness, harness.alice).execute(greeting).expect(200);
      await expectHiddenFromBob(harness, executed.body.pipeline_run_id as string);
    });

    it('should resume a finished run after Last-Event-ID, and answer 204 once nothing is left', async () => {
      const alice = caller(harness, harness.alice);
      const runId = (await alice.execute(greeting).expect(200)).body.pipeline_run_id as string;
      const whole = await alice.events(runId);
      const resumed = await alice.events(runId, { 'Last-Event-ID': whole.frames[1]!.id! });
      expect(resumed.frames).to.deep.equal(whole.frames.slice(2));
      expect(resumed.ended).to.equal(true);
      const done = await alice.events(runId, { 'Last-Event-ID': whole.frames.at(-1)!.id! });
      expect(done.status).to.equal(204);
      expect(done.frames).to.deep.equal([]);
    });

    it('should refuse a Last-Event-ID this route never sent with 422', async () => {
      const alice = caller(harness, harness.alice);
      const runId = (await alice.execute(greeting).expect(200)).body.pipeline_run_id as string;
      const refused = await alice.events(runId, { 'Last-Event-ID': 'yesterday' });
      expect(refused.status).to.equal(422);
      expect(JSON.parse(refused.body)).to.include({
        error_type: 'ValidationError',
        detail: 'header.Last-Event-ID: must be an event id this stream sent (<ms>-<seq>)',
      });
    });

    it('should refuse a missing input up front, leaving no run behind', async () => {
      const refused = await caller(harness, harness.alice)
        .execute({ ...greeting, inputs: {} })
        .expect(422);
      expect(refused.body).to.include({ error_type: 'PipeInputError' });
      await caller(harness, harness.alice)
        .status(refused.headers['x-pipeline-run-id'] as string)
        .expect(404);
    });
  });

  describe('in queue mode (workers on Redis, events in Redis Streams)', () => {
    let deployment: QueueDeployment;

    const open = async (environment: Record<string, string> = {}) => {
      deployment = startQueueDeployment({ environment: { ...JWT, ...environment } });
      harness.app = deployment.app;
      harness.server = await listenOnLoopback(createServer(deployment.app));
      harness.docsUrl = deployment.settings.errorDocsUrl;
    };
    afterEach(async () => {
      await closeServer(harness.server, 1000);
      await deployment.close();
    });

    describe('when runs end at once', () => {
      beforeEach(() => open());

      it('should refuse a /v1/start missing an input with the 422 of /v1/execute, enqueueing nothing', async () => {
        const alice = caller(harness, harness.alice);
        const body = { ...greeting, inputs: {}, pipeline_run_id: 'no-name' };
        const started = await alice.start(body).set('X-Request-ID', 'same').expect(422);
        const executed = await alice.execute(body).set('X-Request-ID', 'same').expect(422);
        expect(started.body).to.deep.equal({ ...executed.body, instance: '/v1/start' });
        expect(started.body).to.include({
          error_type: 'PipeInputError',
          detail: "Pipe 'greet_person' is missing required inputs: name (available: none).",
        });
        expect(await deployment.backend.runQueue.counts()).to.include({ waiting: 0, active: 0, completed: 0 });
        await alice.status('no-name').expect(404);
      });

      it('should show why a failed run failed through status, results and events', async () => {
        const alice = caller(harness, harness.alice);
        await alice.start({ ...filing, pipeline_run_id: 'filing-1' }).expect(202);
        await pollUntil(
          () => alice.status('filing-1').then((response) => response.body.status as string),
          (status) => status === 'FAILED',
        );
        await expectFailedRunExplained(harness, 'filing-1');
        await expectHiddenFromBob(harness, 'filing-1');
      });

      it('should end the stream of a run whose end is recorded but not yet logged with the record’s end, usage included', async () => {
        // a failed run's end is recorded before its `run:finished` is logged (docs/run-events.md): a stream opened
        // between the two ends with the record's own
        const figures = { calls: 2, input_tokens: 20, output_tokens: 10, cost_usd: 0.002, unpriced_calls: 0 };
        const usage = { total: figures, by_model: { 'gpt-4o-mini': figures }, by_pipe: { greet_person: figures } };
        await deployment.backend.registry.save({
          pipeline_run_id: 'ended-1',
          workflow_id: 'ended-1',
          state: 'FAILED',
          pipe_code: null,
          owner: 'alice',
          storage_scope: 'alice',
          request_id: 'req-ended-1',
          created_at: '2026-11-30T00:00:00.000Z',
          started_at: '2026-11-30T00:00:00.100Z',
          finished_at: '2026-11-30T00:00:01.000Z',
          error: {
            error_type: 'RunBudgetExceededError',
            message: 'The run spent its budget.',
            title: 'Run budget exceeded',
            type_uri: `${harness.docsUrl}#runbudgetexceedederror`,
            retryable: false,
            pipe_code: 'greet_person',
          },
          usage,
        });
        const answer = await caller(harness, harness.alice).events('ended-1');
        expect(types(answer)).to.deep.equal(['run:finished']);
        expect(answer.frames[0]?.data).to.deep.include({ type: 'run:finished', status: 'FAILED', usage });
      });

      it('should start a reused id with no trace of the earlier run in its events', async () => {
        const alice = caller(harness, harness.alice);
        await alice.start({ ...filing, pipeline_run_id: 'again' }).expect(202);
        const first = await alice.events('again');
        expect(first.frames.at(-1)?.data).to.include({ status: 'FAILED' });
        await pollUntil(
          () => deployment.backend.runQueue.counts(),
          (counts) => counts['active'] === 0 && counts['waiting'] === 0 && counts['prioritized'] === 0,
        );
        await alice.start({ ...greeting, pipeline_run_id: 'again' }).expect(202);
        const second = await alice.events('again');
        expect(types(second)).to.deep.equal(['run:started', 'pipe:started', 'pipe:finished', 'run:finished']);
        expect(second.frames.at(-1)?.data).to.include({ status: 'COMPLETED' });
      });
    });

    describe('when a run is in flight', () => {
      beforeEach(() => open({ MOCK_INFERENCE_LATENCY_MS: '400' }));

      it('should stream its events live, report its current pipe, and end after the terminal event', async () => {
        const alice = caller(harness, harness.alice);
        await alice.start({ ...filing, pipeline_run_id: 'live' }).expect(202);
        const streamed = alice.events('live');
        const running = await pollUntil(
          () => alice.status('live').then((response) => response.body),
          (body) => body.progress?.current_pipe?.pipe_code === 'greet_person',
        );
        expect(running).to.include({ status: 'RUNNING' });
        expect(running.progress).to.deep.equal({
          current_pipe: {
            step: 2,
            pipe_code: 'greet_person',
            pipe_type: 'PipeLLM',
            started_at: running.progress.current_pipe.started_at,
          },
          finished_pipes: 0,
        });
        const events = await streamed;
        expect(events.ended).to.equal(true);
        expect(events.frames.at(-1)?.event).to.equal('run:finished');
        expect(types(events)).to.have.length(8);
      });

      it('should resume after Last-Event-ID without repeating or losing an event', async () => {
        const alice = caller(harness, harness.alice);
        await alice.start({ ...filing, pipeline_run_id: 'resumed' }).expect(202);
        const head = await alice.events('resumed', {}, 2);
        expect(head.ended).to.equal(false);
        const tail = await alice.events('resumed', { 'Last-Event-ID': head.frames[1]!.id! });
        expect(tail.ended).to.equal(true);
        const whole = await alice.events('resumed');
        expect([...head.frames.slice(0, 2), ...tail.frames]).to.deep.equal(whole.frames);
        expect(types(whole).at(-1)).to.equal('run:finished');
      });

      it('should hide the stream from another caller (404)', async () => {
        await caller(harness, harness.alice)
          .start({ ...greeting, pipeline_run_id: 'private' })
          .expect(202);
        const events = await caller(harness, harness.bob).events('private');
        expect(events.status).to.equal(404);
        expect(JSON.parse(events.body)).to.include({ code: 'run_not_found' });
      });
    });

    describe('when streams reach their bounds', () => {
      beforeEach(() =>
        open({
          MOCK_INFERENCE_LATENCY_MS: '3000',
          RUN_EVENT_STREAMS_MAX: '1',
          RUN_EVENT_STREAM_IDLE_MS: '600',
          RUN_EVENT_STREAM_HEARTBEAT_MS: '100',
        }),
      );

      it('should refuse a stream beyond RUN_EVENT_STREAMS_MAX with 503, send heartbeats, and end an idle stream', async () => {
        const alice = caller(harness, harness.alice);
        await alice.start({ ...greeting, pipeline_run_id: 'slow' }).expect(202);
        // two streams asked at once: whichever the server takes first holds the one slot, the other is refused
        const answers = await Promise.all([alice.events('slow'), alice.events('slow')]);
        expect(answers.map((answer) => answer.status).sort()).to.deep.equal([200, 503]);
        const refused = answers.find((answer) => answer.status === 503)!;
        const idle = answers.find((answer) => answer.status === 200)!;
        expect(refused.headers['retry-after']).to.equal('1');
        expect(JSON.parse(refused.body)).to.include({
          error_type: 'ServerBusyError',
          detail:
            'Too many run event streams are open on this server (RUN_EVENT_STREAMS_MAX = 1); retry later, or poll GET /v1/runs/slow/status.',
        });
        expect(idle.ended).to.equal(true);
        expect(idle.comments).to.include('heartbeat');
        expect(types(idle)).to.not.include('run:finished');
      });
    });
  });
});
