/**
 * The older unversioned routes (spec §4.12; docs/api.md#older-unversioned-routes): `POST /pipeline/execute` and
 * `POST /pipeline/start` on the older request, with the spec's four rules, answered in the older envelope, and
 * `POST /validate` on one bundle, answered in the older body with `mthds_runner_bundle_blueprint`.
 */
import { expect } from 'chai';
import request from 'supertest';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const BUNDLE = `domain = "greet"
description = "Greetings"
main_pipe = "hello"

[concept.Person]
description = "A person"

[concept.Person.structure]
name = { type = "text", description = "Full name", required = true }

[pipe.hello]
type = "PipeCompose"
description = "Say hello"
inputs = { person = "Person" }
output = "Text"
template = "Hello {{ person.name }}!"

[pipe.shout]
type = "PipeCompose"
description = "Shout a name"
inputs = { person = "Person" }
output = "Text"
template = "{{ person.name|upper }}!"
`;

const WITHOUT_MAIN_PIPE = BUNDLE.replace('main_pipe = "hello"\n', '');

const INPUTS = { person: { name: 'Ada' } };

const PERSON = { concept_code: 'greet.Person', multiplicity: 'single' };
const TEXT = { concept_code: 'native.Text', multiplicity: 'single' };

const PIPE_STRUCTURES = {
  hello: { inputs: { person: PERSON }, output: TEXT },
  shout: { inputs: { person: PERSON }, output: TEXT },
};

/** The keys of a `/v1/execute` result of {@link BUNDLE}, in order. */
const RESULT_KEYS = [
  'pipeline_run_id',
  'state',
  'pipeline_state',
  'created_at',
  'finished_at',
  'main_stuff_name',
  'pipe_output',
  'tokens_usages_backends',
  'usage',
  'pipe_structures',
];

const ENVELOPE = { status: 'success', message: null, error: null };

/** A problem document's stable members (all but `request_id`), as the routes answer them. */
function problem(response: request.Response): Record<string, unknown> {
  expect(response.headers['content-type']).to.equal('application/problem+json');
  const { request_id: requestId, ...rest } = response.body as Record<string, unknown>;
  expect(requestId).to.be.a('string');
  return rest;
}

describe('older unversioned routes (spec §4.12)', function () {
  this.timeout(60000);

  describe('POST /pipeline/execute', () => {
    const app = buildTestApp();

    it('should run the bundle of mthds_content and answer the run result in the older envelope', async () => {
      const response = await request(app).post('/pipeline/execute').send({ mthds_content: BUNDLE, inputs: INPUTS });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.headers['content-type']).to.equal('application/json');
      expect(Object.keys(response.body)).to.deep.equal(['status', 'message', 'error', ...RESULT_KEYS]);
      expect(response.body).to.include({ ...ENVELOPE, state: 'COMPLETED', pipeline_state: 'COMPLETED' });
      expect(response.body.main_stuff_name).to.equal('main_stuff');
      expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({ text: 'Hello Ada!' });
      expect(response.body.pipe_structures).to.deep.equal(PIPE_STRUCTURES);
      expect(response.headers['x-pipeline-run-id']).to.equal(response.body.pipeline_run_id);
    });

    it('should answer the same members as /v1/execute, after the three of the envelope', async () => {
      const current = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [BUNDLE], inputs: INPUTS })
        .expect(200);
      expect(Object.keys(current.body)).to.deep.equal(RESULT_KEYS);
    });

    it('should refuse a request with neither pipe_code nor mthds_content (rule 1)', async () => {
      for (const body of [{}, { inputs: INPUTS }, { pipe_code: '', mthds_content: '' }, { mthds_contents: [BUNDLE] }]) {
        const response = await request(app).post('/pipeline/execute').send(body).expect(422);
        expect(problem(response)).to.deep.equal({
          type: '/errors/validation-error/',
          title: 'Validation error',
          status: 422,
          detail:
            'At least one of pipe_code or mthds_content must be given: send the bundle text in mthds_content (and pipe_code to pick a pipe other than its main_pipe).',
          instance: '/pipeline/execute',
          error_type: 'ValidationError',
          error_domain: 'input',
          retryable: false,
        });
      }
    });

    it('should refuse a pipe_code alone, which names no pipe of the empty library (rule 2)', async () => {
      const response = await request(app).post('/pipeline/execute').send({ pipe_code: 'hello', inputs: INPUTS });
      expect(response.status).to.equal(422);
      expect(problem(response)).to.deep.equal({
        type: '/errors/pipe-not-found-error/',
        title: 'Pipe not found',
        status: 422,
        detail:
          "Pipe 'hello' is not registered in the library: this server keeps no library between requests, so a pipe_code alone names no pipe. Send the bundle declaring it in mthds_content.",
        instance: '/pipeline/execute',
        error_type: 'PipeNotFoundError',
        error_domain: 'input',
      });
    });

    it('should refuse mthds_content alone when the bundle declares no main_pipe (rule 3)', async () => {
      const response = await request(app)
        .post('/pipeline/execute')
        .send({ mthds_content: WITHOUT_MAIN_PIPE, inputs: INPUTS });
      expect(response.status).to.equal(422);
      expect(problem(response)).to.deep.equal({
        type: '/errors/pipe-not-found-error/',
        title: 'Pipe not found',
        status: 422,
        detail:
          'No pipe to run: the bundle declares no main_pipe and the request has no pipe_code. Send pipe_code, one of: hello, shout.',
        instance: '/pipeline/execute',
        error_type: 'PipeNotFoundError',
        error_domain: 'input',
      });
    });

    it('should run the pipe pipe_code selects in the bundle, main_pipe or not (rule 4)', async () => {
      for (const content of [BUNDLE, WITHOUT_MAIN_PIPE]) {
        const response = await request(app)
          .post('/pipeline/execute')
          .send({ mthds_content: content, pipe_code: 'shout', inputs: INPUTS })
          .expect(200);
        expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({ text: 'ADA!' });
      }
    });

    it('should refuse a pipe_code the bundle does not declare (rule 4)', async () => {
      const response = await request(app)
        .post('/pipeline/execute')
        .send({ mthds_content: BUNDLE, pipe_code: 'whisper', inputs: INPUTS })
        .expect(422);
      expect(response.body.error_type).to.equal('PipeNotFoundError');
    });

    it('should read output_multiplicity single, variable and N as /v1 reads false, true and N', async () => {
      for (const [older, current] of [
        ['single', false],
        ['variable', true],
        [2, 2],
      ] as const) {
        const answer = await request(app)
          .post('/pipeline/execute')
          .send({ mthds_content: BUNDLE, inputs: INPUTS, output_multiplicity: older });
        const expected = await request(app)
          .post('/v1/execute')
          .send({ mthds_contents: [BUNDLE], inputs: INPUTS, output_multiplicity: current });
        expect(answer.status, `${older}: ${JSON.stringify(answer.body)}`).to.equal(expected.status);
        expect(answer.body.pipe_output?.working_memory.root.main_stuff).to.deep.include({
          content: expected.body.pipe_output?.working_memory.root.main_stuff.content,
        });
      }
    });

    it('should read output_name and dynamic_output_concept_code, and refuse another multiplicity', async () => {
      const named = await request(app)
        .post('/pipeline/execute')
        .send({ mthds_content: BUNDLE, inputs: INPUTS, output_name: 'greeting', dynamic_output_concept_code: 'Text' })
        .expect(200);
      expect(named.body.main_stuff_name).to.equal('greeting');
      for (const multiplicity of ['several', 0, true]) {
        const refused = await request(app)
          .post('/pipeline/execute')
          .send({ mthds_content: BUNDLE, inputs: INPUTS, output_multiplicity: multiplicity })
          .expect(422);
        expect(refused.body.error_type).to.equal('ValidationError');
        expect(refused.body.detail).to.match(/^body\.output_multiplicity: /);
      }
    });

    it('should refuse a body that is not a JSON object as /v1/execute does', async () => {
      const response = await request(app).post('/pipeline/execute').send([BUNDLE]).expect(422);
      expect(problem(response)).to.deep.equal({
        type: '/errors/invalid-json/',
        title: 'Invalid JSON',
        status: 422,
        detail: 'Request body must be a JSON object',
        instance: '/pipeline/execute',
        error_type: 'InvalidJSON',
        error_domain: 'input',
        retryable: false,
      });
    });
  });

  describe('POST /pipeline/start on a direct deployment', () => {
    const app = buildTestApp();

    it('should answer 400 StartRequiresAsyncOrchestration, as /v1/start does', async () => {
      const response = await request(app).post('/pipeline/start').send({ mthds_content: BUNDLE, inputs: INPUTS });
      expect(response.status).to.equal(400);
      expect(response.body.error_type).to.equal('StartRequiresAsyncOrchestration');
      expect(response.body.instance).to.equal('/pipeline/start');
    });

    it('should check the rules first (rule 1)', async () => {
      const response = await request(app).post('/pipeline/start').send({}).expect(422);
      expect(response.body.error_type).to.equal('ValidationError');
    });
  });

  describe('POST /pipeline/start on a queue deployment', () => {
    let deployment: QueueDeployment;

    before(() => {
      deployment = startQueueDeployment();
    });

    after(async () => {
      await deployment.close();
    });

    it('should enqueue the run and answer 200 with the STARTED run in the older envelope', async () => {
      const response = await request(deployment.app)
        .post('/pipeline/start')
        .send({ mthds_content: BUNDLE, inputs: INPUTS });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const { pipeline_run_id: runId, created_at: createdAt, workflow_id: workflowId } = response.body;
      expect(response.body).to.deep.equal({
        ...ENVELOPE,
        pipeline_run_id: runId,
        created_at: createdAt,
        state: 'STARTED',
        pipeline_state: 'STARTED',
        finished_at: null,
        workflow_id: workflowId,
        main_stuff_name: null,
        pipe_output: null,
        pipe_structures: null,
        method_provenance: null,
      });
      expect(Object.keys(response.body).slice(0, 3)).to.deep.equal(['status', 'message', 'error']);
      expect(runId).to.be.a('string');
      const results = await pollUntil(
        () => request(deployment.app).get(`/v1/runs/${runId}/results`),
        (answer) => answer.status !== 202,
      );
      expect(results.status).to.equal(200);
      expect(results.body.main_stuff).to.deep.equal({ text: 'Hello Ada!' });
    });

    it('should refuse a pipe_code alone (rule 2) before anything is enqueued', async () => {
      const response = await request(deployment.app).post('/pipeline/start').send({ pipe_code: 'hello' }).expect(422);
      expect(response.body.error_type).to.equal('PipeNotFoundError');
    });
  });

  describe('POST /validate', () => {
    const app = buildTestApp();

    it('should answer a valid bundle with the older body and this runner’s blueprint member', async () => {
      const response = await request(app).post('/validate').send({ mthds_content: BUNDLE });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.headers['content-type']).to.equal('application/json');
      expect(response.body).to.deep.equal({
        mthds_content: BUNDLE,
        mthds_runner_bundle_blueprint: {
          domain: 'greet',
          description: 'Greetings',
          concepts: {
            Person: {
              concept_code: 'greet.Person',
              description: 'A person',
              refines: null,
              structure: { name: { description: 'Full name', required: true, type: 'text' } },
            },
          },
          pipes: {
            hello: {
              pipe_code: 'hello',
              type: 'PipeCompose',
              description: 'Say hello',
              inputs: { person: PERSON },
              output: TEXT,
            },
            shout: {
              pipe_code: 'shout',
              type: 'PipeCompose',
              description: 'Shout a name',
              inputs: { person: PERSON },
              output: TEXT,
            },
          },
        },
        pipe_structures: PIPE_STRUCTURES,
        success: true,
        message: 'MTHDS content validated successfully',
      });
      expect(Object.keys(response.body)).to.deep.equal([
        'mthds_content',
        'mthds_runner_bundle_blueprint',
        'pipe_structures',
        'success',
        'message',
      ]);
    });

    it('should answer an invalid bundle with the 422 ValidateBundleError problem and its items', async () => {
      const response = await request(app)
        .post('/validate')
        .send({ mthds_content: 'domain = "x"\n\n[pipe.a]\ntype = "PipeCompose"\n' });
      expect(response.status).to.equal(422);
      expect(problem(response)).to.deep.equal({
        type: '/errors/validate-bundle-error/',
        title: 'Validate bundle',
        status: 422,
        detail:
          "Validation error(s): Pipe 'a' (PipeCompose), field 'description': is required (a string). | Pipe 'a' (PipeCompose), field 'output': is required (a string).",
        instance: '/validate',
        error_type: 'ValidateBundleError',
        error_domain: 'input',
        user_action: { kind: 'change_input', detail: 'Check the validation_errors array for specific issues' },
        validation_errors: [
          {
            category: 'blueprint_validation',
            message: "Pipe 'a' (PipeCompose), field 'description': is required (a string).",
            error_type: 'missing',
            source: null,
            pipe_code: 'a',
            domain_code: 'x',
            field_path: 'pipe.a.description',
            field_name: 'description',
          },
          {
            category: 'blueprint_validation',
            message: "Pipe 'a' (PipeCompose), field 'output': is required (a string).",
            error_type: 'missing',
            source: null,
            pipe_code: 'a',
            domain_code: 'x',
            field_path: 'pipe.a.output',
            field_name: 'output',
          },
        ],
      });
    });

    it('should refuse a body without mthds_content (the plural form included)', async () => {
      const response = await request(app)
        .post('/validate')
        .send({ mthds_contents: [BUNDLE] })
        .expect(422);
      expect(problem(response)).to.deep.equal({
        type: '/errors/validation-error/',
        title: 'Validation error',
        status: 422,
        detail: 'body.mthds_content: Invalid input: expected string, received undefined',
        instance: '/validate',
        error_type: 'ValidationError',
        error_domain: 'input',
        retryable: false,
      });
    });
  });

  describe('when authentication is on', () => {
    const app = buildTestApp({ AUTH_MODE: 'api_key', API_KEY: 'legacy-secret' });

    it('should refuse each older route without the bearer, as the /v1 routes do', async () => {
      for (const path of ['/pipeline/execute', '/pipeline/start', '/validate']) {
        const response = await request(app).post(path).send({ mthds_content: BUNDLE }).expect(401);
        expect(response.headers['www-authenticate']).to.equal('Bearer');
        expect(response.body).to.include({ error_type: 'Unauthenticated', instance: path });
      }
    });

    it('should serve them with the bearer', async () => {
      const response = await request(app)
        .post('/validate')
        .set('Authorization', 'Bearer legacy-secret')
        .send({ mthds_content: BUNDLE })
        .expect(200);
      expect(response.body.success).to.equal(true);
    });
  });

  describe('in the OpenAPI document', () => {
    const app = buildTestApp();

    it('should describe the three routes, deprecated, under the legacy tag', async () => {
      const document = (await request(app).get('/v1/openapi.json').expect(200)).body;
      const described = ['/pipeline/execute', '/pipeline/start', '/validate'].map((path) => {
        const { operationId, tags, deprecated } = document.paths[path].post;
        return { path, operationId, tags, deprecated };
      });
      expect(described).to.deep.equal([
        { path: '/pipeline/execute', operationId: 'execute_pipeline_execute_post', tags: ['legacy'], deprecated: true },
        { path: '/pipeline/start', operationId: 'start_pipeline_start_post', tags: ['legacy'], deprecated: true },
        { path: '/validate', operationId: 'validate_mthds_validate_post', tags: ['legacy'], deprecated: true },
      ]);
      expect(document.paths['/v1/execute'].post.deprecated).to.equal(undefined);
    });
  });
});
