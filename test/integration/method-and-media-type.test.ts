import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const PROBLEM_JSON = 'application/problem+json';
const RUN_BODY = JSON.stringify({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } });
const POST_ROUTES = [
  '/v1/execute',
  '/v1/start',
  '/v1/validate',
  '/v1/resolve',
  '/v1/codegen',
  '/v1/build/inputs',
  '/v1/build/output',
  '/v1/build/runner',
  '/v1/lint',
  '/v1/format',
];

/** POST a body with no `Content-Type` header (supertest always sets one), as a raw HTTP client may. */
function postWithoutContentType(app: http.RequestListener, path: string, body: string): Promise<number> {
  const server = http.createServer(app).listen(0, '127.0.0.1');
  return new Promise<number>((resolve, reject) => {
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      const outgoing = http.request(
        { host: '127.0.0.1', port, path, method: 'POST', headers: { 'Content-Length': Buffer.byteLength(body) } },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }).finally(() => {
    server.close();
    server.closeAllConnections();
  });
}

describe('method and media type of a request', () => {
  const app = buildTestApp({ INFERENCE_PROFILE: 'mock' });

  describe('when a known path is asked with another method', () => {
    it('should answer a 405 MethodNotAllowed problem with Allow', async () => {
      const response = await request(app).get('/v1/execute').set('X-Request-ID', 'wrong-method-1').expect(405);
      expect(response.headers['allow']).to.equal('POST');
      expect(response.headers['content-type']).to.equal(PROBLEM_JSON);
      expect(response.body).to.deep.equal({
        type: '/errors/method-not-allowed/',
        title: 'Method not allowed',
        status: 405,
        detail: 'GET is not served on /v1/execute; use POST.',
        instance: '/v1/execute',
        request_id: 'wrong-method-1',
        error_type: 'MethodNotAllowed',
        error_domain: 'input',
        retryable: false,
      });
    });

    it('should answer 405 with Allow: POST for GET on every POST route', async () => {
      for (const path of POST_ROUTES) {
        const response = await request(app).get(path).expect(405);
        expect([path, response.headers['allow'], response.body.error_type]).to.deep.equal([
          path,
          'POST',
          'MethodNotAllowed',
        ]);
      }
    });

    it('should list GET and HEAD for a GET route, mounted routers included', async () => {
      for (const [method, path] of [
        ['post', '/health'],
        ['post', '/ready'],
        ['delete', '/v1/version'],
        ['put', '/v1/models'],
        ['post', '/metrics'],
        ['post', '/errors/not-found/'],
      ] as const) {
        const response = await request(app)[method](path).expect(405);
        expect([path, response.headers['allow']]).to.deep.equal([path, 'GET, HEAD']);
      }
    });

    it('should keep answering OPTIONS with the allowed methods', async () => {
      const response = await request(app).options('/v1/validate').expect(200);
      expect(response.headers['allow']).to.equal('POST');
    });

    it('should keep a 404 without Allow for a path no route serves', async () => {
      const response = await request(app).get('/v1/nothing-here').expect(404);
      expect(response.headers).to.not.have.property('allow');
      expect(response.body.error_type).to.equal('NotFound');
    });

    it('should authenticate before it answers 405', async () => {
      const guarded = buildTestApp({ AUTH_MODE: 'api_key', API_KEY: 'k' });
      await request(guarded).get('/v1/execute').expect(401);
      const response = await request(guarded).get('/v1/execute').set('Authorization', 'Bearer k').expect(405);
      expect(response.headers['allow']).to.equal('POST');
    });
  });

  describe('when a body is not JSON', () => {
    it('should refuse a JSON text sent as text/plain with a 415 UnsupportedMediaType problem', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .set('Content-Type', 'text/plain;charset=UTF-8')
        .set('X-Request-ID', 'plain-text-1')
        .send(RUN_BODY)
        .expect(415);
      expect(response.headers['content-type']).to.equal(PROBLEM_JSON);
      expect(response.body).to.deep.equal({
        type: '/errors/unsupported-media-type/',
        title: 'Unsupported media type',
        status: 415,
        detail:
          "Content-Type 'text/plain' is not supported: the request body must be JSON, sent with 'Content-Type: application/json'.",
        instance: '/v1/execute',
        request_id: 'plain-text-1',
        error_type: 'UnsupportedMediaType',
        error_domain: 'input',
        retryable: false,
      });
    });

    it('should refuse a form body (curl -d without -H) on every POST route', async () => {
      for (const path of POST_ROUTES) {
        const response = await request(app)
          .post(path)
          .set('Content-Type', 'application/x-www-form-urlencoded')
          .send(RUN_BODY)
          .expect(415);
        expect([path, response.body.detail]).to.deep.equal([
          path,
          "Content-Type 'application/x-www-form-urlencoded' is not supported: the request body must be JSON, sent with 'Content-Type: application/json'.",
        ]);
      }
    });

    it('should read application/json with a charset and a +json type', async () => {
      for (const contentType of ['application/json; charset=utf-8', 'application/vnd.mthds+json']) {
        const response = await request(app).post('/v1/execute').set('Content-Type', contentType).send(RUN_BODY);
        expect([contentType, response.status, response.body.state]).to.deep.equal([contentType, 200, 'COMPLETED']);
      }
    });

    it('should read a body sent without a Content-Type as JSON', async () => {
      expect(await postWithoutContentType(app, '/v1/execute', RUN_BODY)).to.equal(200);
    });
  });

  describe('in queue mode', function () {
    this.timeout(30000);
    let deployment: QueueDeployment;

    before(() => {
      deployment = startQueueDeployment({ workers: false });
    });

    after(async () => {
      await deployment.close();
    });

    it('should answer 405 with Allow: GET, HEAD on the run lifecycle routes', async () => {
      for (const path of ['/v1/runs/some-run/status', '/v1/runs/some-run/results']) {
        const response = await request(deployment.app).post(path).send({}).expect(405);
        expect([path, response.headers['allow']]).to.deep.equal([path, 'GET, HEAD']);
      }
    });
  });
});
