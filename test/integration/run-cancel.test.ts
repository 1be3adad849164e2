/**
 * Cancel and deadlines (docs/cancellation.md) on a queue deployment: real Redis, the API and a worker pool in this
 * process (a stop still crosses Redis: the API publishes it, the pool's subscriber hears it), a real PostgreSQL control
 * plane, and a fake OpenAI-compatible provider on 127.0.0.1 that holds the calls the tests want held. A running run is
 * stopped on its worker — its provider call's connection closed, no further call made, its fanned-out children
 * stopped — and recorded `CANCELLED` with its usage so far; a queued run is removed; a finished run is a 409, another
 * owner's a 404; a run past its `timeout_seconds` ends `TIMED_OUT`; 1,000 queued runs are cancelled by one call and
 * their callbacks carry `CANCELLED`.
 */
import { expect } from 'chai';
import request from 'supertest';
import { selectInferenceBackend } from '../../shared/inference/index.js';
import { createLogger, Metrics } from '../../shared/observability/index.js';
import type { RunEvent } from '../../shared/orchestration/index.js';
import { runJobId, startWorkerPool, type WorkerPool } from '../../shared/orchestration/queued.js';
import { type CallbackReceiver, startCallbackReceiver } from '../helpers/callback-receiver.js';
import { closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { CONTROLLERS_BUNDLE } from '../helpers/controllers-bundle.js';
import {
  completion,
  type FakeOpenAiServer,
  type FakeReply,
  startFakeOpenAiServer,
} from '../helpers/fake-openai-server.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';

const ADMIN = 'cancel-admin-key';
const OPERATOR = 'cancel-operator-key-0123456789';
const SECRET = 'cancel-callback-secret';
/** How long a held provider call would take: far longer than any test. */
const HELD_MS = 30_000;

/** A sequence of two calls: the first answered, the second held, so a cancel finds one call's usage. */
const TWO_STEP_BUNDLE = `
domain = "twostep"
description = "Two greetings"
main_pipe = "greet_twice"

[pipe.greet_twice]
type = "PipeSequence"
description = "Greet, then greet again"
inputs = { name = "Text" }
output = "Text"
steps = [
  { pipe = "greet_first", result = "first" },
  { pipe = "greet_again" },
]

[pipe.greet_first]
type = "PipeLLM"
description = "Greet a person"
inputs = { name = "Text" }
output = "Text"
prompt = "Say hello to $name."

[pipe.greet_again]
type = "PipeLLM"
description = "Greet again"
inputs = { first = "Text" }
output = "Text"
prompt = "Say it again: $first"
`;

interface Status {
  status: string;
  state: string;
  progress: { current_pipe: { pipe_code: string } | null; finished_pipes: number };
  [member: string]: unknown;
}

describe('cancel and deadlines (queue mode, real Redis, fake provider)', function () {
  this.timeout(180_000);
  const suite = useTestControlPlane();
  let fake: FakeOpenAiServer;
  let receiver: CallbackReceiver;
  let deployment: QueueDeployment;
  let acme: string;
  let globex: string;
  const extraPools: WorkerPool[] = [];

  const as = (token: string) => ({
    get: (path: string) => request(deployment.app).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object) => {
      const sent = request(deployment.app).post(path).set('Authorization', `Bearer ${token}`);
      return body === undefined ? sent : sent.send(body);
    },
  });

  async function keyOf(name: string): Promise<string> {
    const admin = as(ADMIN);
    const organization = (await admin.post('/v1/organizations', { name }).expect(201)).body.org_id as string;
    const issued = await admin.post('/v1/pipelex-api-keys', { label: 'ci', organization_id: organization }).expect(201);
    return issued.body.api_key as string;
  }

  function deploy(environment: Record<string, string> = {}, workers = true): void {
    deployment = startQueueDeployment({
      secret: SECRET,
      workers,
      controlPlane: suite.database,
      environment: {
        AUTH_MODE: 'api_key',
        API_KEY: ADMIN,
        OPERATOR_API_KEY: OPERATOR,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: fake.baseUrl,
        INFERENCE_MAX_RETRIES: '0',
        CALLBACK_ALLOW_PRIVATE_HOSTS: 'true',
        CALLBACK_BACKOFF_MS: '50',
        ...environment,
      },
    });
  }

  /** A second worker pool on the deployment's settings (the first one's stand-in when it started without one). */
  function startWorkers(): WorkerPool {
    const settings = deployment.settings;
    const environment = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl, INFERENCE_MAX_RETRIES: '0' };
    const pool = startWorkerPool({
      settings,
      logger: createLogger('silent', 'test'),
      metrics: new Metrics(),
      inference: selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment),
      readSecret: () => SECRET,
    });
    extraPools.push(pool);
    return pool;
  }

  const status = (token: string, runId: string) => async () =>
    (await as(token).get(`/v1/runs/${runId}/status`).expect(200)).body as Status;

  const jobState = async (runId: string) =>
    (await deployment.backend.runQueue.queue.getJob(runJobId(runId)))?.getState() ?? 'gone';

  async function runCounters(): Promise<string[]> {
    const text = (await request(deployment.app).get('/metrics').set('Authorization', `Bearer ${OPERATOR}`).expect(200))
      .text;
    return text.split('\n').filter((line) => /^mthds_runs_finished_total\{/.test(line));
  }

  beforeEach(async () => {
    fake = await startFakeOpenAiServer();
    receiver = await startCallbackReceiver();
  });

  afterEach(async () => {
    await closeControlPlaneApps();
    await Promise.all(extraPools.splice(0).map((pool) => pool.close()));
    await deployment.close();
    await receiver.close();
    await fake.close();
  });

  describe('a running run', () => {
    beforeEach(async () => {
      deploy();
      acme = await keyOf('Acme');
      globex = await keyOf('Globex');
    });

    it('should be CANCELLED with its usage so far, its held call aborted, no later call made, its callback CANCELLED', async () => {
      let calls = 0;
      fake.respondWith((): FakeReply => {
        calls += 1;
        return calls === 1 ? completion('Hello Ada') : { ...completion('late'), delayMs: HELD_MS };
      });
      const runId = 'cancel-running-1';
      await as(acme)
        .post('/v1/start', {
          mthds_contents: [TWO_STEP_BUNDLE],
          inputs: { name: 'Ada' },
          pipeline_run_id: runId,
          callback_urls: [receiver.url],
        })
        .expect(202);
      await pollUntil(
        status(acme, runId),
        (read) => read.progress.current_pipe?.pipe_code === 'greet_again' && fake.requests.length === 2,
      );

      const cancelled = await as(acme).post(`/v1/runs/${runId}/cancel`).expect(202);
      expect(cancelled.body).to.deep.equal({
        pipeline_run_id: runId,
        pipe_code: null,
        status: 'CANCELLED',
        state: 'CANCELLED',
        workflow_id: runId,
        created_at: cancelled.body.created_at,
        started_at: cancelled.body.started_at,
        finished_at: cancelled.body.finished_at,
        degraded: false,
        progress: { current_pipe: null, finished_pipes: 1 },
        error: {
          error_type: 'RunCancelledError',
          message: `Run '${runId}' was cancelled by its owner before it ended.`,
          title: 'Run cancelled',
          type_uri: '/errors/run-cancelled-error/',
          error_domain: 'input',
          retryable: false,
          pipe_code: 'greet_again',
        },
        usage: cancelled.body.usage,
      });
      expect(cancelled.body.usage.total).to.include({ calls: 1, input_tokens: 11, output_tokens: 7 });

      // the held call's connection is closed by the worker, and the attempt ends without another call
      await pollUntil(
        async () => fake.requests[1]?.closedAt,
        (closedAt) => closedAt !== undefined,
      );
      await pollUntil(
        () => jobState(runId),
        (state) => state === 'failed',
      );
      expect(fake.requests).to.have.length(2);
      expect(fake.requests[1]!.answeredAt).to.equal(undefined);

      const [callback] = await receiver.successes(1);
      const body = JSON.parse(callback!.body);
      expect(body).to.deep.include({ pipeline_run_id: runId, state: 'CANCELLED', status: 'CANCELLED' });
      expect(body.error).to.include({ error_type: 'RunCancelledError', pipe_code: 'greet_again' });
      expect(body.usage.total.calls).to.equal(1);

      expect(await status(acme, runId)()).to.deep.equal(cancelled.body);
      const logged: RunEvent[] = [];
      const signal = new AbortController().signal;
      for await (const entry of deployment.backend.events.follow(runId, { after: null, wait: false, signal }))
        logged.push(entry.event);
      const terminal = logged.find((event) => event.type === 'run:finished');
      expect(terminal).to.deep.include({ status: 'CANCELLED', finished_pipes: 1 });
      const results = await as(acme).get(`/v1/runs/${runId}/results`).expect(409);
      expect(results.body).to.include({ run_status: 'CANCELLED' });
      expect(await runCounters()).to.include('mthds_runs_finished_total{state="CANCELLED"} 1');
    });

    it('should answer 409 for a finished run and 404 for another owner’s', async () => {
      fake.respondWith(() => completion('Hello'));
      const runId = 'cancel-finished-1';
      await as(acme)
        .post('/v1/start', { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' }, pipeline_run_id: runId })
        .expect(202);
      await pollUntil(status(acme, runId), (read) => read.status === 'COMPLETED');
      const foreign = await as(globex).post(`/v1/runs/${runId}/cancel`).expect(404);
      const unknown = await as(globex).post('/v1/runs/no-such-run/cancel').expect(404);
      expect(foreign.body.code).to.equal('run_not_found');
      expect(unknown.body.code).to.equal('run_not_found');
      const finished = await as(acme).post(`/v1/runs/${runId}/cancel`).expect(409);
      expect(finished.headers['content-type']).to.equal('application/problem+json');
      expect(finished.body).to.deep.include({
        title: 'Run already finished',
        status: 409,
        detail: `Run '${runId}' has already ended with status COMPLETED: there is nothing to cancel.`,
        error_type: 'RunAlreadyFinishedError',
        code: 'run_already_finished',
        run_status: 'COMPLETED',
      });
      expect((await status(acme, runId)()).status).to.equal('COMPLETED');
      // a cancelled run is finished too
      const held = 'cancel-finished-2';
      fake.respondWith(() => ({ ...completion('late'), delayMs: HELD_MS }));
      await as(acme)
        .post('/v1/start', { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' }, pipeline_run_id: held })
        .expect(202);
      await pollUntil(
        async () => fake.requests.length,
        (count) => count === 2,
      );
      await as(acme).post(`/v1/runs/${held}/cancel`).expect(202);
      const again = await as(acme).post(`/v1/runs/${held}/cancel`).expect(409);
      expect(again.body.run_status).to.equal('CANCELLED');
    });

    it('should end a run over its timeout_seconds TIMED_OUT, its call aborted, soon after its deadline', async () => {
      fake.respondWith(() => ({ ...completion('late'), delayMs: HELD_MS }));
      const runId = 'deadline-running-1';
      await as(acme)
        .post('/v1/start', {
          mthds_contents: [GREETING_BUNDLE],
          inputs: { name: 'Ada' },
          pipeline_run_id: runId,
          timeout_seconds: 1,
          callback_urls: [receiver.url],
        })
        .expect(202);
      const ended = await pollUntil(
        status(acme, runId),
        (read) => read.status !== 'PENDING' && read.status !== 'RUNNING',
      );
      expect(ended).to.deep.include({ status: 'TIMED_OUT', state: 'TIMED_OUT' });
      expect(ended['error']).to.deep.equal({
        error_type: 'RunTimedOutError',
        message: `Run '${runId}' did not end within the timeout_seconds of its request and was stopped at its deadline.`,
        title: 'Run timed out',
        type_uri: '/errors/run-timed-out-error/',
        error_domain: 'runtime',
        retryable: false,
        pipe_code: 'greet_person',
      });
      const deadline = Date.parse(ended['created_at'] as string) + 1000;
      const late = Date.parse(ended['finished_at'] as string) - deadline;
      expect(late, 'ended before its deadline').to.be.at.least(0);
      // a generous bound: the stop is recorded by the deadline's timer, milliseconds after it on an idle machine
      expect(late, 'ms after its deadline').to.be.below(5000);
      await pollUntil(
        async () => fake.requests[0]?.closedAt,
        (closedAt) => closedAt !== undefined,
      );
      const [callback] = await receiver.successes(1);
      expect(JSON.parse(callback!.body)).to.deep.include({ state: 'TIMED_OUT', status: 'TIMED_OUT' });
      expect(await runCounters()).to.include('mthds_runs_finished_total{state="TIMED_OUT"} 1');
    });

    it('should refuse a timeout_seconds over RUN_TIMEOUT_MAX_SECONDS, and one that is not a positive integer', async () => {
      const body = { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } };
      const over = await as(acme)
        .post('/v1/start', { ...body, timeout_seconds: 86_401 })
        .expect(422);
      expect(over.body.detail).to.equal(
        'body.timeout_seconds: 86401 is more than this deployment allows (RUN_TIMEOUT_MAX_SECONDS = 86400).',
      );
      await as(acme)
        .post('/v1/start', { ...body, timeout_seconds: 0 })
        .expect(422);
      await as(acme)
        .post('/v1/execute', { ...body, timeout_seconds: 1.5 })
        .expect(422);
    });
  });

  describe('a fanned-out batch', () => {
    beforeEach(async () => {
      deploy({ RUN_FAN_OUT: 'true', BATCH_MAX_PARALLEL: '4', WORKER_CHILD_CONCURRENCY: '8' });
      acme = await keyOf('Acme');
    });

    it('should make no further item call once cancelled half-way, its held item calls aborted', async () => {
      let releaseHeld: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        releaseHeld = resolve;
      });
      let calls = 0;
      fake.respondWith((): FakeReply => {
        calls += 1;
        return calls <= 20 ? completion(`echo ${calls}`) : { ...completion('late'), after: held };
      });
      const runId = 'cancel-batch-1';
      const words = Array.from({ length: 40 }, (_, index) => `word-${index}`);
      await as(acme)
        .post('/v1/start', {
          mthds_contents: [CONTROLLERS_BUNDLE],
          pipe_code: 'batch_echo',
          inputs: { words },
          pipeline_run_id: runId,
        })
        .expect(202);
      // 20 items answered, the next 4 (BATCH_MAX_PARALLEL) held on their providers' calls
      await pollUntil(
        async () => fake.requests.length,
        (count) => count === 24,
        60_000,
      );
      await as(acme).post(`/v1/runs/${runId}/cancel`).expect(202);
      await pollUntil(
        async () => fake.requests.slice(20).filter((call) => call.closedAt !== undefined).length,
        (closed) => closed === 4,
      );
      // were a child still running, the provider answering now would let it end and free a slot
      releaseHeld();
      await pollUntil(
        () => jobState(runId),
        (state) => state === 'failed',
      );
      await pollUntil(
        () => deployment.backend.childQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized'),
        (counts) => Object.values(counts).every((count) => count === 0),
      );
      expect(fake.requests).to.have.length(24);
      expect(((await status(acme, runId)()) as Status).status).to.equal('CANCELLED');
    });
  });

  describe('queued runs', () => {
    beforeEach(async () => {
      deploy({}, false);
      acme = await keyOf('Acme');
      globex = await keyOf('Globex');
    });

    it('should cancel 1,000 queued runs in one bulk call, remove their jobs and call back with CANCELLED', async () => {
      const runs = 1000;
      const ids: string[] = [];
      for (let start = 0; start < runs; start += 50) {
        const acked = await Promise.all(
          Array.from({ length: Math.min(50, runs - start) }, (_, index) =>
            as(acme)
              .post('/v1/start', {
                mthds_contents: [GREETING_BUNDLE],
                inputs: { name: `n${start + index}` },
                callback_urls: [receiver.url],
              })
              .expect(202),
          ),
        );
        ids.push(...acked.map((response) => response.body.pipeline_run_id as string));
      }
      const other = await as(globex)
        .post('/v1/start', { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'g' } })
        .expect(202);
      expect(await deployment.backend.runQueue.queue.getPrioritizedCount()).to.equal(runs + 1);

      const bulk = await as(acme).post('/v1/runs/cancel', {}).expect(200);
      expect(bulk.body).to.deep.equal({ cancelled: runs });
      expect(await deployment.backend.runQueue.queue.getPrioritizedCount()).to.equal(1);
      expect((await status(acme, ids[0]!)()).status).to.equal('CANCELLED');
      expect((await status(acme, ids[runs - 1]!)()).status).to.equal('CANCELLED');
      expect((await status(globex, other.body.pipeline_run_id)()).status).to.equal('PENDING');
      expect(
        await as(acme)
          .post('/v1/runs/cancel', {})
          .expect(200)
          .then((again) => again.body),
      ).to.deep.equal({
        cancelled: 0,
      });

      // a worker pool delivers the callbacks; it takes the other owner's run, and none of the cancelled ones
      fake.respondWith(() => completion('Hello'));
      startWorkers();
      const delivered = await receiver.successes(runs);
      const bodies = delivered.map((callback) => JSON.parse(callback.body));
      expect(new Set(bodies.map((body) => body.pipeline_run_id))).to.deep.equal(new Set(ids));
      expect(bodies.every((body) => body.state === 'CANCELLED' && body.status === 'CANCELLED')).to.equal(true);
      expect(bodies.every((body) => body.error.error_type === 'RunCancelledError')).to.equal(true);
      await pollUntil(status(globex, other.body.pipeline_run_id), (read) => read.status === 'COMPLETED');
      expect(fake.requests).to.have.length(1);
    });

    it('should cancel only the runs the filters name', async () => {
      const started = async (token: string, pipeCode: string | null) =>
        (
          await as(token)
            .post('/v1/start', {
              mthds_contents: [TWO_STEP_BUNDLE],
              inputs: { name: 'Ada' },
              ...(pipeCode ? { pipe_code: pipeCode } : {}),
            })
            .expect(202)
        ).body.pipeline_run_id as string;
      const first = await started(acme, 'greet_first');
      const whole = await started(acme, null);
      expect((await as(acme).post('/v1/runs/cancel', { state: 'RUNNING' }).expect(200)).body).to.deep.equal({
        cancelled: 0,
      });
      expect((await as(acme).post('/v1/runs/cancel', { state: 'COMPLETED,FAILED' }).expect(200)).body).to.deep.equal({
        cancelled: 0,
      });
      expect(
        (
          await as(acme)
            .post('/v1/runs/cancel', { status: ['PENDING'], pipe_code: 'greet_first' })
            .expect(200)
        ).body,
      ).to.deep.equal({ cancelled: 1 });
      expect((await status(acme, first)()).status).to.equal('CANCELLED');
      expect((await status(acme, whole)()).status).to.equal('PENDING');
      const future = new Date(Date.now() + 3_600_000).toISOString();
      expect((await as(acme).post('/v1/runs/cancel', { created_from: future }).expect(200)).body).to.deep.equal({
        cancelled: 0,
      });
      await as(acme).post('/v1/runs/cancel', { created_from: '2026-11-29T10:00:00' }).expect(400);
      await as(acme).post('/v1/runs/cancel', { method_id: 'mt_x@3' }).expect(400);
      await as(acme).post('/v1/runs/cancel', { stat: 'STARTED' }).expect(422);
      // an empty body is `{}`, as on every JSON route: every run not ended
      expect((await as(acme).post('/v1/runs/cancel').expect(200)).body).to.deep.equal({ cancelled: 1 });
      expect((await status(acme, whole)()).status).to.equal('CANCELLED');
    });

    it('should answer a blocking /v1/execute whose queued run is cancelled with 409 RunCancelledError at once', async () => {
      const executing = as(acme)
        .post('/v1/execute', { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } })
        .then((response) => response);
      const listed = await pollUntil(
        async () => (await as(acme).get('/v1/runs?state=STARTED').expect(200)).body as { items: unknown[] },
        (page) => page.items.length === 1,
      );
      const runId = (listed.items[0] as { pipeline_run_id: string }).pipeline_run_id;
      await as(acme).post(`/v1/runs/${runId}/cancel`).expect(202);
      const answered = await executing;
      expect(answered.status).to.equal(409);
      expect(answered.body).to.deep.include({ error_type: 'RunCancelledError', code: 'run_cancelled' });
      expect(await jobState(runId)).to.equal('gone');
    });

    it('should end a queued run whose deadline passed before a worker took it TIMED_OUT, without a call', async () => {
      const runId = 'deadline-queued-1';
      const acked = await as(acme)
        .post('/v1/start', {
          mthds_contents: [GREETING_BUNDLE],
          inputs: { name: 'Ada' },
          pipeline_run_id: runId,
          timeout_seconds: 1,
        })
        .expect(202);
      const deadline = Date.parse(acked.body.created_at) + 1000;
      await pollUntil(
        async () => Date.now(),
        (now) => now > deadline,
        5000,
      );
      fake.respondWith(() => completion('Hello'));
      startWorkers();
      const ended = await pollUntil(status(acme, runId), (read) => read.status === 'TIMED_OUT');
      expect((ended['error'] as { error_type: string }).error_type).to.equal('RunTimedOutError');
      expect(fake.requests).to.have.length(0);
    });
  });
});
