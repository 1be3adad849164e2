/**
 * Regression of issue 29, finding 6 (lone UTF-16 surrogates): JSON may escape a surrogate without its pair
 * (`"\ud800"`), which is no Unicode text. In queue mode such inputs made `/v1/execute` a 500 (`canonicalize` refuses
 * them) and a `/v1/start` run `FAILED InternalServerError`; a `pipeline_run_id` holding one was acknowledged but
 * could never be polled (no URL carries it). Every string of a body, keys included, is now checked where the body is
 * decoded: one holding a lone surrogate is a 422 `ValidationError` naming its JSON path, before anything runs or is
 * enqueued; a path parameter that is not percent-encoded UTF-8 (`%ED%A0%80`) is a 422 instead of a 500
 * (docs/limits.md#lone-surrogates).
 */
import { expect } from 'chai';
import request from 'supertest';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const HELLO =
  'domain = "hello_greeting"\nmain_pipe = "write_greeting"\n\n[pipe.write_greeting]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Hi $name."\n';

/** A run body whose `inputs` (and any `head` members) are given as JSON text, so that escapes reach the server. */
function runBody(inputs: string, head = ''): string {
  return `{${head}"mthds_contents":${JSON.stringify([HELLO])},"inputs":${inputs}}`;
}

const detail = (where: string, surrogate: string) =>
  `${where} holds a lone UTF-16 surrogate (${surrogate}), which is not Unicode text: escape a character outside the Basic Multilingual Plane as a high and low surrogate pair (\\uD83D\\uDE00), or send it unescaped`;

const post = (app: Parameters<typeof request>[0], path: string, text: string) =>
  request(app).post(path).set('Content-Type', 'application/json').send(text);

function expectRefusal(answer: request.Response, path: string, where: string, surrogate: string): void {
  expect(answer.status).to.equal(422);
  expect(answer.headers['content-type']).to.equal('application/problem+json');
  expect(answer.body).to.deep.include({
    type: '/errors/validation-error/',
    title: 'Validation error',
    status: 422,
    detail: detail(where, surrogate),
    instance: path,
    error_type: 'ValidationError',
    error_domain: 'input',
    retryable: false,
  });
}

describe('regression: strings holding a lone UTF-16 surrogate are refused at the edge (issue 29, finding 6)', function () {
  this.timeout(60000);

  describe('in direct mode', () => {
    const app = buildTestApp();

    it('should refuse an input value holding a lone high surrogate, naming its path', async () => {
      const answer = await post(app, '/v1/execute', runBody('{"name":"A\\ud800da"}'));
      expectRefusal(answer, '/v1/execute', 'body.inputs.name: the string', '\\uD800');
    });

    it('should refuse a lone low surrogate deep in a list, and one in an object key', async () => {
      const deep = await post(app, '/v1/execute', runBody('{"name":"Ada","notes":{"list":["ok","\\udc01"]}}'));
      expectRefusal(deep, '/v1/execute', 'body.inputs.notes.list.1: the string', '\\uDC01');
      const key = await post(app, '/v1/execute', runBody('{"name":"Ada","\\ud83d":"x"}'));
      expectRefusal(key, '/v1/execute', 'body.inputs: an object key', '\\uD83D');
    });

    it('should refuse one in a body over 256 KiB, which is decoded in a thread', async () => {
      const padding = JSON.stringify('x'.repeat(300 * 1024));
      const answer = await post(app, '/v1/execute', runBody(`{"name":"Ada","padding":${padding},"z":"\\udfff"}`));
      expectRefusal(answer, '/v1/execute', 'body.inputs.z: the string', '\\uDFFF');
    });

    it('should refuse one in a bundle text on a diagnostic route', async () => {
      const answer = await post(app, '/v1/validate', '{"mthds_contents":["domain = \\"d\\ud800\\""]}');
      expectRefusal(answer, '/v1/validate', 'body.mthds_contents.0: the string', '\\uD800');
    });

    it('should run an input escaping a whole surrogate pair', async () => {
      const answer = await post(app, '/v1/execute', runBody('{"name":"\\ud83d\\ude00"}')).expect(200);
      expect(answer.body.pipe_output.working_memory.root.name.content).to.deep.equal({ text: '😀' });
    });

    it('should answer a run id path parameter that is no UTF-8 text with 422, not 500', async () => {
      for (const route of ['status', 'results']) {
        const answer = await request(app).get(`/v1/runs/%ED%A0%80/${route}`).expect(422);
        expect(answer.body).to.deep.include({
          status: 422,
          error_type: 'ValidationError',
          detail:
            "path: the parameter '%ED%A0%80' is not percent-encoded UTF-8 text; percent-encode the UTF-8 bytes of each character (a lone surrogate has none)",
          instance: `/v1/runs/%ED%A0%80/${route}`,
        });
      }
    });
  });

  describe('in queue mode', () => {
    let deployment: QueueDeployment;
    before(() => {
      deployment = startQueueDeployment({ workers: false });
    });
    after(() => deployment.close());

    it('should refuse /v1/execute inputs holding one with 422 before anything is enqueued', async () => {
      const answer = await post(deployment.app, '/v1/execute', runBody('{"name":"A\\ud800da"}'));
      expectRefusal(answer, '/v1/execute', 'body.inputs.name: the string', '\\uD800');
    });

    it('should refuse /v1/start inputs holding one before the run is acknowledged', async () => {
      const body = runBody('{"name":"A\\udbffda"}', '"pipeline_run_id":"surrogate-inputs",');
      expectRefusal(
        await post(deployment.app, '/v1/start', body),
        '/v1/start',
        'body.inputs.name: the string',
        '\\uDBFF',
      );
      await request(deployment.app).get('/v1/runs/surrogate-inputs/status').expect(404);
    });

    it('should refuse a pipeline_run_id holding one instead of acknowledging a run no URL can reach', async () => {
      const body = runBody('{"name":"Ada"}', '"pipeline_run_id":"run-\\ud800-1",');
      expectRefusal(
        await post(deployment.app, '/v1/start', body),
        '/v1/start',
        'body.pipeline_run_id: the string',
        '\\uD800',
      );
    });
  });
});
