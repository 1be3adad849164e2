/**
 * Regression of issue 29 (hardening): a live run had no bound on the pipes it starts. Batches over lists multiply them
 * — a batch over a list whose items each ask a model for `Text[1000]` and batch over it, or a batch of batches — so
 * one `/v1/execute` on mock inference ran about a million pipes for minutes, growing the API process's memory (working
 * memories, events, graph, result); on a real provider it multiplies the cost. The dry run of `/v1/validate` already
 * stopped at 10,000 pipes.
 *
 * Every pipe of a run is now counted as it starts, by the router, against `RUN_MAX_PIPES`; a fanned-out child carries
 * the run's count to its worker and hands back the pipes it started, so a queued run's children share the count
 * (docs/limits.md#pipes-per-run). Past the bound the run fails with `RunPipeBudgetExceededError`, recorded as any
 * run failure. The bundle below starts 1 + 2 × (2 + 30) = 65 pipes for two words.
 */
import { expect } from 'chai';
import request from 'supertest';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const BOMB = `domain = "bomb"
main_pipe = "each_word"

[pipe.each_word]
type = "PipeBatch"
description = "Expand every word"
inputs = { words = "Text[]" }
output = "Text[]"
branch_pipe_code = "expand"
input_list_name = "words"
input_item_name = "word"

[pipe.expand]
type = "PipeSequence"
description = "Variants of a word, each echoed"
inputs = { word = "Text" }
output = "Text[]"
steps = [
  { pipe = "variants", result = "variants" },
  { pipe = "echo", batch_over = "variants", batch_as = "variant", result = "echoes" },
]

[pipe.variants]
type = "PipeLLM"
description = "Variants of the word"
inputs = { word = "Text" }
output = "Text[30]"
prompt = "Variants of $word"

[pipe.echo]
type = "PipeCompose"
description = "Echo a variant"
inputs = { variant = "Text" }
output = "Text"
template = "{{ variant }}"
`;

const RUN = { mthds_contents: [BOMB], inputs: { words: ['alpha', 'beta'] } };

/** The problem document of a run stopped at a bound of 50 pipes, without its per-request members. */
const EXCEEDED = {
  type: '/errors/run-pipe-budget-exceeded-error/',
  title: 'Run pipe budget exceeded',
  status: 422,
  detail:
    'The run would start more than 50 pipes, the most one run may start (RUN_MAX_PIPES): batches over lists multiply the pipes a run starts. Nest fewer batches or batch over shorter lists (docs/limits.md#pipes-per-run).',
  error_type: 'RunPipeBudgetExceededError',
  error_domain: 'input',
  retryable: false,
};

describe('regression: the pipes one run starts are bounded (RUN_MAX_PIPES)', function () {
  this.timeout(60000);

  describe('direct mode', () => {
    it('should fail a run of nested batches past the bound with the exact problem document', async () => {
      const app = buildTestApp({ RUN_MAX_PIPES: '50' });
      const response = await request(app).post('/v1/execute').send(RUN).expect(422);
      const { instance: _instance, request_id: _requestId, ...problem } = response.body as Record<string, unknown>;
      expect(problem).to.deep.equal(EXCEEDED);
      const runId = response.headers['x-pipeline-run-id'] as string;
      const status = await request(app).get(`/v1/runs/${runId}/status`).expect(200);
      expect(status.body).to.include({ status: 'FAILED', state: 'FAILED' });
      expect(status.body.error).to.include({ error_type: 'RunPipeBudgetExceededError', retryable: false });
      expect(status.body.usage.total.calls, 'the usage of the pipes that ran').to.be.within(1, 2);
    });

    it('should run the same bundle to the end when the bound is its count of pipes', async () => {
      const response = await request(buildTestApp({ RUN_MAX_PIPES: '65' }))
        .post('/v1/execute')
        .send(RUN)
        .expect(200);
      const root = response.body.pipe_output.working_memory.root as Record<string, { content: { items: unknown[] } }>;
      expect(root['main_stuff']!.content.items).to.have.length(60);
    });
  });

  describe('queue mode, children fanned out', () => {
    let deployment: QueueDeployment;
    let childJobs: number;

    beforeEach(() => {
      deployment = startQueueDeployment({ environment: { RUN_FAN_OUT: 'true', RUN_MAX_PIPES: '50' } });
      childJobs = 0;
      deployment.pool!.childWorker.on('active', () => {
        childJobs += 1;
      });
    });
    afterEach(() => deployment.close());

    it('should record the run FAILED with the same error, its children counted with it', async () => {
      const ack = await request(deployment.app).post('/v1/start').send(RUN).expect(202);
      const runId = ack.body.pipeline_run_id as string;
      const status = await pollUntil(
        async () => (await request(deployment.app).get(`/v1/runs/${runId}/status`)).body as Record<string, unknown>,
        (body) => body['status'] === 'FAILED' || body['status'] === 'COMPLETED',
      );
      expect(status).to.include({ status: 'FAILED', state: 'FAILED' });
      expect(status['error']).to.include({
        error_type: 'RunPipeBudgetExceededError',
        error_domain: 'input',
        retryable: false,
        message: EXCEEDED.detail,
      });
      expect(childJobs, 'the batch items ran as child jobs').to.be.greaterThan(0);
    });
  });
});
