import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { loadApiConfig, SettingsError } from '../../shared/config/index.js';
import { type CallbackReceiver, startCallbackReceiver } from '../helpers/callback-receiver.js';
import { sample } from '../helpers/corpus.js';
import { FILING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const SECRET = 'callback-secret';
const hello = { mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' } };

function statusOf(deployment: QueueDeployment, runId: string) {
  return () =>
    request(deployment.app)
      .get(`/v1/runs/${runId}/status`)
      .then((response) => response.body as { status: string });
}

describe('queue mode (bullmq orchestrator, in-process workers, real Redis)', function () {
  this.timeout(30000);
  let deployment: QueueDeployment;
  let receiver: CallbackReceiver | undefined;

  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
    await deployment.close();
  });

  describe('when runs succeed', () => {
    beforeEach(() => {
      deployment = startQueueDeployment({
        secret: SECRET,
        environment: { CALLBACK_ALLOW_PRIVATE_HOSTS: 'true', CALLBACK_BACKOFF_MS: '50' },
      });
    });

    it('should execute a run on a worker and answer the run result', async () => {
      const response = await request(deployment.app).post('/v1/execute').send(hello).expect(200);
      expect(response.body).to.include({
        state: 'COMPLETED',
        pipeline_state: 'COMPLETED',
        main_stuff_name: 'main_stuff',
      });
      expect(response.body.pipe_output.working_memory.root.main_stuff.content.text).to.include('Ada');
    });

    it('should start a run (202 acknowledgement), then serve its status and results', async () => {
      const ack = await request(deployment.app)
        .post('/v1/start')
        .send({ ...hello, pipeline_run_id: 'client-run-42' })
        .expect(202);
      expect(ack.headers['content-type']).to.equal('application/json');
      expect(Object.keys(ack.body)).to.deep.equal([
        'pipeline_run_id',
        'created_at',
        'state',
        'pipeline_state',
        'finished_at',
        'workflow_id',
        'main_stuff_name',
        'pipe_output',
        'pipe_structures',
        'method_provenance',
      ]);
      expect(ack.body).to.include({
        pipeline_run_id: 'client-run-42',
        state: 'STARTED',
        pipeline_state: 'STARTED',
        finished_at: null,
        main_stuff_name: null,
      });
      expect(ack.body.workflow_id).to.be.a('string');
      const status = await pollUntil(statusOf(deployment, 'client-run-42'), (body) => body.status === 'COMPLETED');
      expect(status).to.include({
        pipeline_run_id: 'client-run-42',
        state: 'COMPLETED',
        workflow_id: ack.body.workflow_id,
        degraded: false,
      });
      const results = await request(deployment.app).get('/v1/runs/client-run-42/results').expect(200);
      expect(results.body.pipeline_run_id).to.equal('client-run-42');
      expect(results.body.main_stuff.text).to.include('Ada');
      expect(results.body.graph_spec).to.deep.equal(results.body.pipe_output.graph_spec);
      expect(results.body.pipe_output.graph_spec).to.include({ graph_id: 'client-run-42' });
      expect(results.body.pipe_output.graph_spec.nodes.map((node: { status: string }) => node.status)).to.deep.equal([
        'succeeded',
      ]);
      expect(results.body.pipe_output.working_memory.aliases).to.deep.equal({});
    });

    it('should deliver a callback whose two signatures verify', async () => {
      receiver = await startCallbackReceiver([200]);
      const ack = await request(deployment.app)
        .post('/v1/start')
        .send({ ...hello, callback_urls: [receiver.url] })
        .expect(202);
      const [delivery] = await receiver.successes(1);
      const runId = ack.body.pipeline_run_id as string;
      expect(delivery!.headers['x-completion-signature']).to.equal(
        createHmac('sha256', SECRET).update(runId).digest('hex'),
      );
      const [, timestamp, digest] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(
        String(delivery!.headers['x-completion-signature-256']),
      )!;
      expect(digest).to.equal(createHmac('sha256', SECRET).update(`${timestamp}.${delivery!.body}`).digest('hex'));
      const body = JSON.parse(delivery!.body);
      expect(body).to.include({
        pipeline_run_id: runId,
        state: 'COMPLETED',
        status: 'COMPLETED',
        main_stuff_name: 'main_stuff',
      });
      // the run's worker made the delivery itself: the callback queue never held a job
      expect(await deployment.backend.callbackQueue.counts()).to.deep.equal({
        waiting: 0,
        active: 0,
        delayed: 0,
        failed: 0,
        completed: 0,
      });
    });

    it('should retry a failing receiver until one delivery succeeds, the retries on the callback queue', async () => {
      receiver = await startCallbackReceiver([500, 500, 200]);
      await request(deployment.app)
        .post('/v1/start')
        .send({ ...hello, callback_urls: [receiver.url] })
        .expect(202);
      await receiver.successes(1);
      expect(receiver.received.map((entry) => entry.answered)).to.deep.equal([500, 500, 200]);
      const retries = await pollUntil(
        () => deployment.backend.callbackQueue.queue.getJobs(['completed']),
        (jobs) => jobs.length > 0,
      );
      expect(retries.map((job) => [job.attemptsMade, job.opts.attempts])).to.deep.equal([[2, 5]]);
    });

    it('should dead-letter a delivery whose receiver never answers', async () => {
      await deployment.close();
      deployment = startQueueDeployment({
        secret: SECRET,
        environment: {
          CALLBACK_ALLOW_PRIVATE_HOSTS: 'true',
          CALLBACK_BACKOFF_MS: '50',
          CALLBACK_TIMEOUT_MS: '200',
          CALLBACK_MAX_ATTEMPTS: '2',
        },
      });
      receiver = await startCallbackReceiver(['hang']);
      await request(deployment.app)
        .post('/v1/start')
        .send({ ...hello, callback_urls: [receiver.url] })
        .expect(202);
      await pollUntil(
        () => deployment.backend.callbackQueue.counts(),
        (counts) => counts['failed'] === 1,
      );
      expect(receiver.received).to.have.length(2);
      const metrics = await request(deployment.app).get('/metrics').expect(200);
      expect(metrics.text).to.match(/mthds_callback_deliveries_total\{outcome="retried"\} 1/);
      expect(metrics.text).to.match(/mthds_callback_deliveries_total\{outcome="dead_lettered"\} 1/);
      expect(metrics.text).to.match(/mthds_queue_jobs\{queue="callbacks",state="failed"\} 1/);
    });

    it('should answer 404 with a code for an unknown run', async () => {
      const response = await request(deployment.app).get('/v1/runs/does-not-exist/results').expect(404);
      expect(response.body).to.include({ error_type: 'RunNotFoundError', code: 'run_not_found' });
    });

    it('should expose queue and run metrics', async () => {
      await request(deployment.app).post('/v1/execute').send(hello).expect(200);
      const metrics = await request(deployment.app).get('/metrics').expect(200);
      expect(metrics.text).to.match(/mthds_runs_started_total\{mode="bullmq",delivery="blocking"\} 1/);
      expect(metrics.text).to.match(/mthds_runs_finished_total\{state="COMPLETED"\} 1/);
      expect(metrics.text).to.match(/mthds_queue_jobs\{queue="runs",state="completed"\} 1/);
      expect(metrics.text).to.match(/mthds_http_requests_total\{route="\/v1\/execute",method="POST",status="200"\} 1/);
    });

    it('should serve the queue dashboard', async () => {
      const page = await request(deployment.app).get('/admin/queues/').expect(200);
      expect(page.headers['content-type']).to.match(/^text\/html/);
    });
  });

  describe('when a run is held in flight', () => {
    beforeEach(() => {
      deployment = startQueueDeployment({ environment: { MOCK_INFERENCE_LATENCY_MS: '800' } });
    });

    it('should refuse its id with 409 until it completes, then accept it again', async () => {
      await request(deployment.app)
        .post('/v1/start')
        .send({ ...hello, pipeline_run_id: 'busy' })
        .expect(202);
      const conflict = await request(deployment.app)
        .post('/v1/start')
        .send({ ...hello, pipeline_run_id: 'busy' })
        .expect(409);
      expect(conflict.body).to.include({
        error_type: 'PipelineManagerAlreadyExistsError',
        status: 409,
        code: 'run_id_in_flight',
      });
      expect(conflict.body).to.not.have.property('error_domain');
      await pollUntil(statusOf(deployment, 'busy'), (body) => body.status === 'COMPLETED');
      await request(deployment.app)
        .post('/v1/start')
        .send({ ...hello, pipeline_run_id: 'busy' })
        .expect(202);
    });

    it('should answer 202 with Retry-After on results while the run is not finished', async () => {
      await request(deployment.app)
        .post('/v1/start')
        .send({ ...hello, pipeline_run_id: 'slow' })
        .expect(202);
      const pending = await request(deployment.app).get('/v1/runs/slow/results').expect(202);
      expect(pending.headers['retry-after']).to.equal('1');
      expect(['PENDING', 'RUNNING']).to.include(pending.body.status);
    });
  });

  describe('when a run fails', () => {
    beforeEach(() => {
      deployment = startQueueDeployment({ secret: SECRET, environment: { CALLBACK_ALLOW_PRIVATE_HOSTS: 'true' } });
    });

    it('should record FAILED with the error, answer 409 on results and send the failure callback', async () => {
      receiver = await startCallbackReceiver([200]);
      const ack = await request(deployment.app)
        .post('/v1/start')
        .send({ mthds_contents: [FILING_BUNDLE], inputs: { name: 'Ada' }, callback_urls: [receiver.url] })
        .expect(202);
      const runId = ack.body.pipeline_run_id as string;
      await pollUntil(statusOf(deployment, runId), (body) => body.status === 'FAILED');
      const results = await request(deployment.app).get(`/v1/runs/${runId}/results`).expect(409);
      expect(results.body).to.include({
        detail: `Run finished with status FAILED: ${results.body.error.message}`,
        code: 'run_result_unavailable',
        run_status: 'FAILED',
      });
      expect(results.body.error).to.include({ error_type: 'PipeFeatureNotSupportedError', pipe_code: 'file_greeting' });
      const [delivery] = await receiver.successes(1);
      const body = JSON.parse(delivery!.body);
      expect(Object.keys(body)).to.deep.equal(['pipeline_run_id', 'state', 'status', 'error', 'usage']);
      expect(body).to.include({ pipeline_run_id: runId, state: 'FAILED', status: 'FAILED' });
      expect(body.usage.total).to.include({ calls: 1, cost_usd: null, unpriced_calls: 1 });
      expect(body.error).to.include({
        error_type: 'PipeFeatureNotSupportedError',
        error_domain: 'config',
        title: 'Pipe feature not supported',
        pipe_code: 'file_greeting',
      });
      expect(body.error).to.not.have.property('detail');
    });

    it('should give a blocking execute the problem document of the worker error', async () => {
      const response = await request(deployment.app)
        .post('/v1/execute')
        .send({ mthds_contents: [FILING_BUNDLE], inputs: { name: 'Ada' } })
        .expect(501);
      expect(response.body).to.include({ error_type: 'PipeFeatureNotSupportedError', error_domain: 'config' });
      expect(response.body.detail).to.include("function 'file_greeting' is not registered");
    });
  });

  describe('request checks before enqueueing', () => {
    beforeEach(() => {
      deployment = startQueueDeployment({ workers: false });
    });

    it('should refuse callback_urls without COMPLETION_CALLBACK_SECRET with 500 and enqueue nothing', async () => {
      const response = await request(deployment.app)
        .post('/v1/start')
        .send({ ...hello, pipeline_run_id: 'unsigned', callback_urls: ['https://hooks.example.com/done'] })
        .expect(500);
      expect(response.body).to.include({ error_type: 'EnvVarNotFoundError', status: 500 });
      expect(await deployment.backend.runQueue.counts()).to.include({ waiting: 0 });
      await request(deployment.app).get('/v1/runs/unsigned/status').expect(404);
    });

    const refused = [
      'http://127.0.0.1/x',
      'http://2130706433/x',
      'http://0x7f.1/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://169.254.169.254/latest',
      'http://10.0.0.5/',
      'http://100.64.0.1/',
      'http://[fd00::1]/',
      'http://localhost:8080/',
      'http://metadata.google.internal/',
      'ftp://example.com/x',
    ];
    for (const url of refused) {
      it(`should refuse the callback URL ${url} with 422`, async () => {
        const response = await request(deployment.app)
          .post('/v1/start')
          .send({ ...hello, callback_urls: [url] })
          .expect(422);
        expect(response.body.error_type).to.equal('InvalidCallbackUrls');
        expect(response.body.detail).to.include('callback_urls.0');
      });
    }

    it('should refuse more than 5 callback URLs', async () => {
      const urls = Array.from({ length: 6 }, (_, index) => `https://hooks.example.com/${index}`);
      await request(deployment.app)
        .post('/v1/start')
        .send({ ...hello, callback_urls: urls })
        .expect(422);
    });

    it('should refuse an invalid bundle with 422 before enqueueing', async () => {
      const response = await request(deployment.app)
        .post('/v1/start')
        .send({ mthds_contents: [sample('invalid/missing_pipe_ref')] })
        .expect(422);
      expect(response.body.error_type).to.equal('ValidateBundleError');
      expect(await deployment.backend.runQueue.counts()).to.include({ waiting: 0 });
    });
  });

  describe('orchestration mode overrides', () => {
    beforeEach(() => {
      deployment = startQueueDeployment({
        apiConfig: { orchestrationMode: 'bullmq', allowRequestOrchestrationModeOverride: true },
      });
    });

    it('should serve a per-request direct override in-process', async () => {
      const response = await request(deployment.app)
        .post('/v1/execute')
        .send({ ...hello, orchestration_mode: 'direct' })
        .expect(200);
      expect(response.body.state).to.equal('COMPLETED');
      expect(await deployment.backend.runQueue.counts()).to.include({ completed: 0 });
    });

    it('should fail an unregistered mode at dispatch with 500 MissingOrchestratorError', async () => {
      const response = await request(deployment.app)
        .post('/v1/execute')
        .send({ ...hello, orchestration_mode: 'temporal' })
        .expect(500);
      expect(response.body.error_type).to.equal('MissingOrchestratorError');
      expect(response.body.detail).to.include("'temporal'");
    });
  });
});

describe('POST /v1/start on the direct orchestrator', () => {
  it('should answer 400 StartRequiresAsyncOrchestration, even for an invalid bundle', async () => {
    const response = await request(buildTestApp())
      .post('/v1/start')
      .send({ mthds_contents: [sample('invalid/missing_pipe_ref')] })
      .expect(400);
    expect(response.body).to.include({
      error_type: 'StartRequiresAsyncOrchestration',
      status: 400,
      error_domain: 'input',
      retryable: false,
    });
    expect(response.body.detail).to.equal(
      'Orchestration mode \'direct\' cannot honor fire-and-forget delivery: /v1/start needs the queue backend. To enable it, put orchestration_mode = "bullmq" in api_override.toml of SERVICE_CONFIG_DIR (default ./config), give REDIS_URL a Redis and restart (npm start runs a worker in process; scaled deployments run npm run start:worker). Or use /v1/execute (synchronous) instead.',
    );
  });
});

describe('loadApiConfig', () => {
  it('should refuse to boot with the override allowed on a direct default', () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-config-'));
    try {
      writeFileSync(join(dir, 'api_override.toml'), 'allow_request_orchestration_mode_override = true\n');
      expect(() => loadApiConfig(dir, 'dev')).to.throw(SettingsError, 'allow_request_orchestration_mode_override');
      writeFileSync(join(dir, 'api_override.toml'), 'orchestration_mode = "bullmq"\nsurprise = 1\n');
      expect(() => loadApiConfig(dir, 'dev')).to.throw(SettingsError, 'surprise');
      writeFileSync(
        join(dir, 'api_override.toml'),
        'orchestration_mode = "bullmq"\nallow_request_orchestration_mode_override = true\n',
      );
      expect(loadApiConfig(dir, 'dev')).to.deep.equal({
        orchestrationMode: 'bullmq',
        allowRequestOrchestrationModeOverride: true,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
