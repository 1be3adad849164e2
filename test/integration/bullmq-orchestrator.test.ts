/**
 * The `bullmq` orchestrator through its port, without HTTP: the real Redis under a prefix of its own, no worker, so
 * what it stored and enqueued can be read back exactly.
 */
import { expect } from 'chai';
import { loadSettings } from '../../shared/config/index.js';
import { Metrics } from '../../shared/observability/index.js';
import { dispatchPolicy, type QueueBackend } from '../../shared/orchestration/index.js';
import { openQueueBackend } from '../../shared/orchestration/queued.js';
import { GREETING_BUNDLE, greetingSubmission, inThreadBundleChecker } from '../helpers/greeting-bundle.js';
import { problemFor } from '../helpers/problem.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, uniquePrefix } from '../helpers/redis.js';
import { testRunObjects } from '../helpers/run-objects.js';

const NOW = Date.parse('2026-11-24T10:00:00.000Z');

const submission = greetingSubmission;

async function failureOf(promise: Promise<unknown>): Promise<{ error_type?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { error_type?: string };
  }
  throw new Error('the call succeeded');
}

describe('the bullmq orchestrator through its port (real Redis, no worker)', function () {
  this.timeout(30000);
  const prefix = uniquePrefix();
  let backend: QueueBackend;
  const orchestrator = () =>
    backend.orchestrator({
      policy: dispatchPolicy(loadSettings({}).dispatch),
      metrics: new Metrics(),
      executeTimeoutMs: 200,
      readSecret: () => undefined,
      now: () => NOW,
      bundles: inThreadBundleChecker(),
      objects: testRunObjects(),
    });

  before(() => {
    backend = openQueueBackend(loadSettings({ ...TEST_REDIS_ENVIRONMENT, QUEUE_PREFIX: prefix }));
  });
  after(async () => {
    await backend.close();
    await deletePrefix(prefix);
  });

  describe('when a run is started', () => {
    it('should record it STARTED under its owner and enqueue exactly its job payload, sealed', async () => {
      const ack = await orchestrator().start!(submission());
      expect(ack).to.include({
        pipeline_run_id: 'run-1',
        state: 'STARTED',
        pipeline_state: 'STARTED',
        created_at: '2026-11-24T10:00:00.000Z',
        finished_at: null,
        method_provenance: null,
      });
      const record = await backend.registry.get('run-1');
      expect(record).to.include({
        state: 'STARTED',
        owner: 'alice',
        storage_scope: 'alice',
        request_id: 'req-1',
        workflow_id: ack.workflow_id,
      });
      const job = await backend.runQueue.queue.getJob(ack.workflow_id!);
      expect(job?.data).to.deep.equal({
        pipeline_run_id: 'run-1',
        request_id: 'req-1',
        owner: 'alice',
        sources: [{ content: GREETING_BUNDLE, source: null }],
        pipe_code: null,
        inputs: { name: 'Ada' },
        output_name: null,
        output_multiplicity: null,
        dynamic_output_concept_ref: null,
        storage_scope: 'alice',
        callback_urls: [],
        method_provenance: null,
        created_at: NOW,
        history: { source_digest: job?.data.history?.source_digest },
        seal: job?.data.seal,
      });
      expect(job?.data.seal).to.match(/^[0-9a-f]{64}$/);
      expect(job?.data.history?.source_digest).to.match(/^[0-9a-f]{64}$/);
    });

    it('should refuse the same id while that run is in flight (409), and another owner always (409 run_id_taken)', async () => {
      expect(problemFor(await failureOf(orchestrator().start!(submission())))).to.include({
        status: 409,
        error_type: 'PipelineManagerAlreadyExistsError',
        code: 'run_id_in_flight',
      });
      const otherOwner = await failureOf(orchestrator().start!(submission({ owner: 'bob', storageScope: 'bob' })));
      expect(problemFor(otherOwner)).to.include({
        status: 409,
        error_type: 'PipelineRunIdTakenError',
        code: 'run_id_taken',
      });
    });
  });

  describe('when the bundle checker refuses the bundle', () => {
    it('should enqueue nothing and free the id', async () => {
      const broken = submission({
        pipelineRunId: 'run-2',
        sources: [{ content: 'domain = "greet"\n[pipe.x]\ntype = "PipeNope"\n', source: null }],
      });
      const before = await backend.runQueue.queue.count();
      expect(await failureOf(orchestrator().start!(broken))).to.include({ error_type: 'ValidateBundleError' });
      expect(await backend.runQueue.queue.count()).to.equal(before);
      expect(await backend.registry.get('run-2')).to.equal(undefined);
      const ack = await orchestrator().start!(submission({ pipelineRunId: 'run-2' }));
      expect(ack.pipeline_run_id).to.equal('run-2');
    });
  });

  describe('when callbacks are asked for without a signing secret', () => {
    it('should refuse the run before anything is stored', async () => {
      const failure = await failureOf(
        orchestrator().start!(
          submission({ pipelineRunId: 'run-3', callbackUrls: ['https://hooks.example.test/done'] }),
        ),
      );
      expect(failure).to.include({ error_type: 'EnvVarNotFoundError' });
      expect(await backend.registry.get('run-3')).to.equal(undefined);
    });
  });

  describe('when a blocking run finds no worker', () => {
    it('should answer a retryable RunTimeoutError pointing at the status route once EXECUTE_TIMEOUT_MS is over', async () => {
      const failure = await failureOf(
        orchestrator().execute(submission({ pipelineRunId: 'run-4' }), new AbortController().signal),
      );
      expect(failure).to.include({ error_type: 'RunTimeoutError', retryable: true });
      expect((failure as { message?: string }).message).to.contain('GET /v1/runs/run-4/status');
    });
  });
});
