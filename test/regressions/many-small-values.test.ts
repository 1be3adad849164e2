/**
 * Regression of issue 29, finding 4 (bodies of many small values): a 90 MiB `/v1/execute` body whose `inputs` held an
 * undeclared array of 23.6 M short strings stalled `/health` for 27–33 s (30 MiB: 6 s; an object of 6.4 M keys:
 * 12.6 s), in direct and in queue mode, because every walk over the decoded value (the structured clone back from the
 * decoding thread, the input binding, the run record, the answer) ran on the event loop and was bounded by bytes only.
 * The number of values of a body is now bounded too (`MAX_JSON_VALUES`), counted in the linear pre-scan of the raw
 * bytes that measures `MAX_JSON_DEPTH`, before anything is parsed (docs/limits.md#json-values).
 */
import { expect } from 'chai';
import request from 'supertest';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const HELLO =
  'domain = "hello_greeting"\nmain_pipe = "write_greeting"\n\n[pipe.write_greeting]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Hi $name."\n';

/**
 * A run body with an undeclared input `extra` given as JSON text. Its values besides `extra`'s: the body, its keys
 * `mthds_contents` and `inputs`, the array and its text, the inputs object, `name` and `Ada`, and the key `extra`: 9.
 */
function runBody(extra: string, head = ''): string {
  return `{${head}"mthds_contents":${JSON.stringify([HELLO])},"inputs":{"name":"Ada","extra":${extra}}}`;
}
const OTHER_VALUES = 9;

/** A JSON array of `count` copies of a string, built as text. */
function strings(count: number, item = 'a'): string {
  return `[${`${JSON.stringify(item)},`.repeat(count - 1)}${JSON.stringify(item)}]`;
}

/** A JSON object of `count` keys `k0`… holding 1, built as text. */
function keys(count: number): string {
  return `{${Array.from({ length: count }, (_, index) => `"k${index}":1`).join(',')}}`;
}

const detail = (limit: number) =>
  `JSON body holds more than ${limit} values (MAX_JSON_VALUES); each string, object key, number, true, false, null, array and object counts one`;

const post = (app: Parameters<typeof request>[0], path: string, text: string) =>
  request(app).post(path).set('Content-Type', 'application/json').send(text);

describe('regression: a body holding too many values is refused before it is parsed (issue 29, finding 4)', function () {
  this.timeout(60000);
  const LIMIT = 1000;
  const app = buildTestApp({ MAX_JSON_VALUES: String(LIMIT) });

  describe('when a run body holds one value past MAX_JSON_VALUES', () => {
    it('should answer 422 InvalidJSON naming the setting, for an undeclared array of short strings', async () => {
      const answer = await post(app, '/v1/execute', runBody(strings(LIMIT - OTHER_VALUES))).expect(422);
      expect(answer.headers['content-type']).to.equal('application/problem+json');
      expect(answer.body).to.deep.include({
        type: '/errors/invalid-json/',
        title: 'Invalid JSON',
        status: 422,
        detail: detail(LIMIT),
        instance: '/v1/execute',
        error_type: 'InvalidJSON',
        error_domain: 'input',
        retryable: false,
      });
    });

    it('should count object keys too', async () => {
      const answer = await post(app, '/v1/execute', runBody(keys(LIMIT / 2))).expect(422);
      expect(answer.body).to.include({ error_type: 'InvalidJSON', detail: detail(LIMIT) });
    });

    it('should answer the same for a body over 256 KiB, which is decoded in a thread', async () => {
      const long = 'x'.repeat(400);
      const answer = await post(app, '/v1/execute', runBody(strings(LIMIT - OTHER_VALUES, long))).expect(422);
      expect(answer.body).to.include({ error_type: 'InvalidJSON', detail: detail(LIMIT) });
    });
  });

  describe('when the values past the limit are followed by text no parser accepts', () => {
    it('should answer the count, not a parse error: the body is refused before JSON.parse sees it', async () => {
      const cut = `${runBody(strings(LIMIT)).slice(0, -3)}${',]]]} not json'.repeat(50_000)}`;
      const answer = await post(app, '/v1/execute', cut).expect(422);
      expect(answer.body).to.include({ error_type: 'InvalidJSON', detail: detail(LIMIT) });
    });
  });

  describe('when a run body holds exactly MAX_JSON_VALUES values', () => {
    it('should run it', async () => {
      const answer = await post(app, '/v1/execute', runBody(strings(LIMIT - OTHER_VALUES - 1))).expect(200);
      expect(answer.body).to.include({ state: 'COMPLETED' });
      expect(answer.body.pipe_output.working_memory.root.extra.content.items).to.have.length(LIMIT - OTHER_VALUES - 1);
    });
  });

  describe('when a diagnostic route gets a body past the limit', () => {
    it('should answer 422 ValidationError naming the setting', async () => {
      const body = `{"mthds_contents":${JSON.stringify([HELLO])},"padding":${strings(LIMIT)}}`;
      const answer = await post(app, '/v1/validate', body).expect(422);
      expect(answer.body).to.deep.include({
        status: 422,
        error_type: 'ValidationError',
        detail: detail(LIMIT),
        instance: '/v1/validate',
        retryable: false,
      });
    });
  });

  describe('at the default MAX_JSON_VALUES (100000)', () => {
    it('should refuse a body one value over it', async () => {
      const answer = await post(buildTestApp(), '/v1/execute', runBody(strings(100_000 - OTHER_VALUES))).expect(422);
      expect(answer.body).to.include({ error_type: 'InvalidJSON', detail: detail(100_000) });
    });
  });

  describe('when /v1/start (queue mode) gets a body past the limit', () => {
    let deployment: QueueDeployment;
    before(() => {
      deployment = startQueueDeployment({ environment: { MAX_JSON_VALUES: String(LIMIT) }, workers: false });
    });
    after(() => deployment.close());

    it('should answer 422 InvalidJSON and enqueue nothing', async () => {
      const body = runBody(strings(LIMIT), '"pipeline_run_id":"many-values-1",');
      const answer = await post(deployment.app, '/v1/start', body).expect(422);
      expect(answer.body).to.include({ status: 422, error_type: 'InvalidJSON', detail: detail(LIMIT) });
      await request(deployment.app).get('/v1/runs/many-values-1/status').expect(404);
    });
  });
});
