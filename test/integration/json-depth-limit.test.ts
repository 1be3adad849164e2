import { expect } from 'chai';
import request from 'supertest';
import { sample } from '../helpers/corpus.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

/** A JSON text of `depth` nested objects, `{"a":{"a":…1…}}`, built as text (no deep value is ever held). */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function runBody(inputsText: string): string {
  return `{"mthds_content":${JSON.stringify(sample('hello_greeting'))},"inputs":${inputsText}}`;
}

const TOO_DEEP = 'JSON nesting depth exceeds 64 (MAX_JSON_DEPTH)';

describe('MAX_JSON_DEPTH (spec §8, docs/limits.md)', function () {
  this.timeout(30000);
  const app = buildTestApp();
  const post = (path: string, text: string) =>
    request(app).post(path).set('Content-Type', 'application/json').send(text);

  describe('when a typed route gets a body nested deeper than the limit', () => {
    for (const path of [
      '/v1/validate',
      '/v1/resolve',
      '/v1/codegen',
      '/v1/build/inputs',
      '/v1/build/output',
      '/v1/build/runner',
      '/v1/lint',
      '/v1/format',
    ]) {
      it(`should answer ${path} with a 422 ValidationError naming the limit`, async () => {
        const response = await post(path, `{"content":${nested(65)}}`).expect(422);
        expect(response.headers['content-type']).to.equal('application/problem+json');
        expect(response.body).to.include({
          status: 422,
          error_type: 'ValidationError',
          detail: TOO_DEEP,
          error_domain: 'input',
          retryable: false,
        });
      });
    }
  });

  describe('when a run route gets inputs nested 5,000 deep', () => {
    it('should answer /v1/execute with a 422 InvalidJSON naming the limit', async () => {
      const response = await post('/v1/execute', runBody(nested(5000))).expect(422);
      expect(response.body).to.include({
        status: 422,
        error_type: 'InvalidJSON',
        detail: TOO_DEEP,
        error_domain: 'input',
        retryable: false,
      });
    });
  });

  describe('when the body is exactly as deep as the limit', () => {
    it('should reach the handler (the inputs are then checked by the run)', async () => {
      const response = await post('/v1/execute', runBody(nested(63))).expect(422);
      expect(response.body.error_type).to.not.equal('InvalidJSON');
      expect(response.body.detail).to.not.equal(TOO_DEEP);
    });

    it('should not count brackets inside strings', async () => {
      const response = await post(
        '/v1/lint',
        JSON.stringify({ content: `# ${'['.repeat(5000)}{{\n${sample('hello_greeting')}` }),
      ).expect(200);
      expect(response.body.diagnostics).to.deep.equal([]);
    });
  });

  describe('when a run body is over 256 KiB (decoded in a diagnostics thread)', () => {
    const padding = 'x'.repeat(300 * 1024);

    it('should run it as it runs a small body', async () => {
      const response = await post(
        '/v1/execute',
        JSON.stringify({ mthds_content: sample('hello_greeting'), inputs: { name: 'Ada' }, padding }),
      ).expect(200);
      expect(response.body).to.include({ state: 'COMPLETED', main_stuff_name: 'main_stuff' });
      expect(response.body.pipe_output.working_memory.root.name.content).to.deep.equal({ text: 'Ada' });
    });

    it('should answer a malformed one with 422 InvalidJSON and a too deep one with the limit', async () => {
      const malformed = await post('/v1/execute', `{"padding":"${padding}",`).expect(422);
      expect(malformed.body).to.include({ error_type: 'InvalidJSON' });
      expect(malformed.body.detail).to.match(/^Request body is not valid JSON: /);
      const deep = await post('/v1/execute', runBody(`{"padding":"${padding}","deep":${nested(65)}}`)).expect(422);
      expect(deep.body).to.include({ error_type: 'InvalidJSON', detail: TOO_DEEP });
    });
  });

  describe('when MAX_JSON_DEPTH is set', () => {
    it('should apply the configured limit', async () => {
      const shallow = buildTestApp({ MAX_JSON_DEPTH: '3' });
      const response = await request(shallow)
        .post('/v1/lint')
        .set('Content-Type', 'application/json')
        .send('{"content":[[["x"]]]}')
        .expect(422);
      expect(response.body).to.include({
        error_type: 'ValidationError',
        detail: 'JSON nesting depth exceeds 3 (MAX_JSON_DEPTH)',
      });
    });
  });

  describe('when /v1/start (queue mode) gets inputs nested 5,000 deep', () => {
    let deployment: QueueDeployment;
    before(() => {
      deployment = startQueueDeployment({ workers: false });
    });
    after(() => deployment.close());

    it('should answer a 422 InvalidJSON, not a retryable 503', async () => {
      const response = await request(deployment.app)
        .post('/v1/start')
        .set('Content-Type', 'application/json')
        .send(runBody(nested(5000)))
        .expect(422);
      expect(response.body).to.include({ status: 422, error_type: 'InvalidJSON', detail: TOO_DEEP, retryable: false });
    });
  });
});
