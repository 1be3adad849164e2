/**
 * The results body of a completed run, artifact by artifact, and its `?artifacts=` selection (docs/api.md#run-results);
 * `output_multiplicity` sent as a string, read as the reference's lax mode reads it (docs/api.md#lax-values); in direct
 * mode and through the queue.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { OPTIONAL_BUNDLE } from '../helpers/optional-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const greeting = { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } };

/** Every artifact name, in the order the body carries them. */
const ARTIFACTS = [
  'main_stuff',
  'working_memory',
  'graph_spec',
  'pipe_io_contracts',
  'input_form',
  'output_form',
  'tokens_usages',
];

function results(app: Express, runId: string, query = '') {
  return request(app).get(`/v1/runs/${runId}/results${query}`);
}

/** The valid report of the greeting bundle with both form views: what the I/O artifacts of its runs must equal. */
async function greetingReport(app: Express): Promise<Record<string, unknown>> {
  const validated = await request(app)
    .post('/v1/validate')
    .send({ mthds_contents: [GREETING_BUNDLE], views: ['input_form', 'output_form'] })
    .expect(200);
  return validated.body;
}

/**
 * The results body a completed run answers (docs/api.md#run-results): its output's members at the top level, the I/O
 * artifacts as `/v1/validate` reports them, no assembly errors, then `pipe_output` and `usage`.
 */
function completedResults(
  runId: string,
  output: {
    working_memory: { root: { main_stuff: { content: unknown } } };
    graph_spec: unknown;
    tokens_usages: unknown;
  },
  report: Record<string, unknown>,
  usage: unknown,
): Record<string, unknown> {
  return {
    pipeline_run_id: runId,
    main_stuff: output.working_memory.root.main_stuff.content,
    working_memory: output.working_memory,
    graph_spec: output.graph_spec,
    graph_assembly_error: null,
    pipe_io_contracts: report['pipe_io_contracts'],
    input_form: report['input_form'],
    output_form: report['output_form'],
    pipe_io_artifacts_error: null,
    tokens_usages: output.tokens_usages,
    usage_assembly_error: null,
    pipe_output: output,
    usage,
  };
}

describe('the results of a completed run', function () {
  this.timeout(60000);

  describe('in direct mode', () => {
    const app = buildTestApp();

    it('should carry every artifact at the top level, the I/O artifacts as /v1/validate gives them', async () => {
      const executed = await request(app).post('/v1/execute').send(greeting).expect(200);
      const runId = executed.body.pipeline_run_id as string;
      const report = await greetingReport(app);
      const body = (await results(app, runId).expect(200)).body;
      const output = executed.body.pipe_output;
      expect(body).to.deep.equal(completedResults(runId, output, report, executed.body.usage));
      expect(Object.keys(body.main_stuff)).to.deep.equal(['text']);
      expect(Object.keys(body.working_memory)).to.deep.equal(['root', 'aliases']);
      expect(Object.keys(body.pipe_io_contracts)).to.deep.equal(['greet.greet_person']);
      expect(body.tokens_usages).to.have.length(1);
    });

    it('should give a list output as {items: […]}, with output_multiplicity sent as the string "3"', async () => {
      const executed = await request(app)
        .post('/v1/execute')
        .send({ ...greeting, output_multiplicity: '3' })
        .expect(200);
      const body = (await results(app, executed.body.pipeline_run_id, '?artifacts=main_stuff').expect(200)).body;
      expect(Object.keys(body)).to.deep.equal(['pipeline_run_id', 'main_stuff']);
      expect(Object.keys(body.main_stuff)).to.deep.equal(['items']);
      expect(body.main_stuff.items).to.have.length(3);
      expect(body.main_stuff).to.deep.equal(executed.body.pipe_output.working_memory.root.main_stuff.content);
    });

    it('should read output_multiplicity "1" and "true" as true, and "false" as false, as the reference does', async () => {
      for (const [sent, list] of [
        ['1', true],
        ['true', true],
        ['false', false],
      ] as const) {
        const executed = await request(app)
          .post('/v1/execute')
          .send({ ...greeting, output_multiplicity: sent })
          .expect(200);
        const main = (await results(app, executed.body.pipeline_run_id, '?artifacts=main_stuff').expect(200)).body
          .main_stuff;
        expect(Object.keys(main), sent).to.deep.equal(list ? ['items'] : ['text']);
      }
      const refused = await request(app)
        .post('/v1/execute')
        .send({ ...greeting, output_multiplicity: 'several' })
        .expect(422);
      expect(refused.body).to.include({
        error_type: 'ValidationError',
        detail: "body.output_multiplicity: 'several' must be true, false or a count from 1 to 1000 (MAX_MULTIPLICITY)",
      });
    });

    it('should give an absent main output as {absent: true, absence}, never null', async () => {
      const executed = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [OPTIONAL_BUNDLE], pipe_code: 'only_enrich', inputs: {} })
        .expect(200);
      expect(executed.body).to.include({ absent: true });
      const body = (await results(app, executed.body.pipeline_run_id, '?artifacts=main_stuff').expect(200)).body;
      expect(body.main_stuff).to.deep.equal({ absent: true, absence: executed.body.absence });
    });

    it('should return only the artifacts named, each with its error member', async () => {
      const runId = (await request(app).post('/v1/execute').send(greeting).expect(200)).body.pipeline_run_id as string;
      const whole = (await results(app, runId).expect(200)).body;
      const keysOf = async (query: string) => Object.keys((await results(app, runId, query).expect(200)).body);
      expect(await keysOf('?artifacts=tokens_usages')).to.deep.equal([
        'pipeline_run_id',
        'tokens_usages',
        'usage_assembly_error',
      ]);
      expect(await keysOf('?artifacts=graph_spec')).to.deep.equal([
        'pipeline_run_id',
        'graph_spec',
        'graph_assembly_error',
      ]);
      expect(await keysOf('?artifacts=output_form')).to.deep.equal([
        'pipeline_run_id',
        'output_form',
        'pipe_io_artifacts_error',
      ]);
      const six = await results(
        app,
        runId,
        '?artifacts=pipe_io_contracts,input_form,output_form,main_stuff,working_memory,tokens_usages',
      ).expect(200);
      expect(six.body).to.deep.equal({
        pipeline_run_id: runId,
        main_stuff: whole.main_stuff,
        working_memory: whole.working_memory,
        pipe_io_contracts: whole.pipe_io_contracts,
        input_form: whole.input_form,
        output_form: whole.output_form,
        pipe_io_artifacts_error: null,
        tokens_usages: whole.tokens_usages,
        usage_assembly_error: null,
      });
      const all = await results(app, runId, `?artifacts=${ARTIFACTS.join(',')}`).expect(200);
      const { pipe_output: _output, usage: _usage, ...artifacts } = whole;
      expect(all.body).to.deep.equal(artifacts);
      const repeated = await results(app, runId, '?artifacts=main_stuff&artifacts=%20graph_spec%20').expect(200);
      expect(Object.keys(repeated.body)).to.deep.equal([
        'pipeline_run_id',
        'main_stuff',
        'graph_spec',
        'graph_assembly_error',
      ]);
    });

    it('should refuse an empty selection, an empty name or an unknown one with 400', async () => {
      const runId = (await request(app).post('/v1/execute').send(greeting).expect(200)).body.pipeline_run_id as string;
      const names = ARTIFACTS.join(', ');
      for (const [query, named] of [
        ['?artifacts=', 'an empty name is not an artifact name'],
        ['?artifacts=main_stuff,', 'an empty name is not an artifact name'],
        ['?artifacts=main_stuff,pipe_output', "'pipe_output' is not an artifact name"],
        ['?artifacts=usage,nothing', "'usage', 'nothing' are not artifact names"],
      ] as const) {
        const refused = await results(app, runId, query).expect(400);
        expect(refused.body, query).to.deep.equal({
          type: '/errors/bad-request/',
          title: 'Bad request',
          status: 400,
          detail: `artifacts: ${named}; name one or more of ${names}, comma-separated.`,
          instance: `/v1/runs/${runId}/results`,
          request_id: refused.body.request_id,
          error_type: 'BadRequest',
          error_domain: 'input',
          retryable: false,
        });
      }
    });

    it('should carry a code on the 404 of an unknown run, artifacts asked or not', async () => {
      for (const query of ['', '?artifacts=main_stuff']) {
        const missing = await results(app, 'never-ran', query).expect(404);
        expect(missing.body).to.include({ error_type: 'RunNotFoundError', code: 'run_not_found' });
      }
    });
  });

  describe('in queue mode', () => {
    let deployment: QueueDeployment;

    before(() => {
      deployment = startQueueDeployment();
    });
    after(async () => {
      await deployment.close();
    });

    it('should start a run with every optional field the n8n node sends, output_multiplicity "1" a string', async () => {
      const started = await request(deployment.app)
        .post('/v1/start')
        .set('Idempotency-Key', 'exec-1:node-1:0')
        .send({
          ...greeting,
          pipe_code: 'greet_person',
          output_name: 'main_stuff',
          output_multiplicity: '1',
          dynamic_output_concept_ref: 'native.Text',
        })
        .expect(202);
      const runId = started.body.pipeline_run_id as string;
      const done = await pollUntil(
        () => results(deployment.app, runId),
        (response) => response.status !== 202,
      );
      expect(done.status).to.equal(200);
      const report = await greetingReport(deployment.app);
      const output = done.body.pipe_output;
      expect(done.body).to.deep.equal(completedResults(runId, output, report, done.body.usage));
      expect(Object.keys(done.body.main_stuff)).to.deep.equal(['items']);
      const selected = await results(deployment.app, runId, '?artifacts=main_stuff,tokens_usages').expect(200);
      expect(selected.body).to.deep.equal({
        pipeline_run_id: runId,
        main_stuff: done.body.main_stuff,
        tokens_usages: output.tokens_usages,
        usage_assembly_error: null,
      });
    });
  });
});
