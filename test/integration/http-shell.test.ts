import { expect } from 'chai';
import request from 'supertest';
import { TEST_JWT_SECRET as JWT_SECRET, signTestJwt as signJwt } from '../helpers/jwt.js';
import { buildTestApp } from '../helpers/test-app.js';

const PROBLEM_JSON = 'application/problem+json';

describe('HTTP shell', () => {
  describe('GET /health', () => {
    it('should answer ok with a request id', async () => {
      const response = await request(buildTestApp()).get('/health').expect(200);
      expect(response.headers['content-type']).to.equal('application/json');
      expect(response.body).to.deep.equal({ status: 'ok', message: 'MTHDS runner is running' });
      expect(response.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    });
  });

  describe('GET /v1/version', () => {
    it('should announce the implementation and protocol 0.7.0', async () => {
      const response = await request(buildTestApp()).get('/v1/version').expect(200);
      expect(response.body).to.deep.equal({
        protocol_version: '0.7.0',
        runner_version: '0.1.0',
        implementation: 'mthds-runner',
        implementation_version: '0.1.0',
        runtime_version: '0.1.0',
      });
    });
  });

  describe('X-Request-ID', () => {
    it('should keep a well-formed inbound id and echo it in problem documents', async () => {
      const response = await request(buildTestApp()).get('/nowhere').set('X-Request-ID', 'client_id-42').expect(404);
      expect(response.headers['x-request-id']).to.equal('client_id-42');
      expect(response.body.request_id).to.equal('client_id-42');
    });

    it('should replace an id with forbidden characters by a UUID', async () => {
      const response = await request(buildTestApp()).get('/health').set('X-Request-ID', 'bad id!').expect(200);
      expect(response.headers['x-request-id']).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    });

    it('should replace an id longer than 128 characters', async () => {
      const response = await request(buildTestApp()).get('/health').set('X-Request-ID', 'a'.repeat(129)).expect(200);
      expect(response.headers['x-request-id']).to.not.equal('a'.repeat(129));
    });
  });

  describe('unknown routes', () => {
    it('should answer a 404 problem document without a code member', async () => {
      const response = await request(buildTestApp()).post('/v1/nowhere').send({}).expect(404);
      expect(response.headers['content-type']).to.equal(PROBLEM_JSON);
      expect(response.body).to.not.have.property('code');
      expect(response.body).to.include({ status: 404, error_type: 'NotFound', instance: '/v1/nowhere' });
    });
  });

  describe('body size limit', () => {
    it('should refuse a declared Content-Length over MAX_REQUEST_BODY_MIB with 413, even on /health', async () => {
      const response = await request(buildTestApp({ MAX_REQUEST_BODY_MIB: '1' }))
        .get('/health')
        .set('Content-Length', String(2 * 1024 * 1024))
        .expect(413);
      expect(response.headers['content-type']).to.equal(PROBLEM_JSON);
      expect(response.headers['x-request-id']).to.be.a('string');
      expect(response.body).to.include({ status: 413, error_type: 'PayloadTooLarge', retryable: false });
      expect(response.body.detail).to.include('MAX_REQUEST_BODY_MIB');
    });

    it('should refuse a real body over the limit with 413', async () => {
      const response = await request(buildTestApp({ MAX_REQUEST_BODY_MIB: '1' }))
        .post('/v1/validate')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ mthds_contents: ['x'.repeat(1024 * 1024 + 10)] }))
        .expect(413);
      expect(response.body.error_type).to.equal('PayloadTooLarge');
    });
  });

  describe('GET /metrics in direct mode', () => {
    it('should count direct runs by outcome and HTTP requests by route pattern', async () => {
      const app = buildTestApp();
      const bundle =
        'domain = "d"\nmain_pipe = "greet"\n[pipe.greet]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\ntemplate = "Hi {{ name }}"\n';
      await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [bundle], inputs: { name: 'Ada' } })
        .expect(200);
      await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [bundle], inputs: { name: 'Ada' } })
        .expect(200);
      await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [bundle], inputs: { name: { concept: 'Text', content: { text: 1 } } } })
        .expect(422);
      const text = (await request(app).get('/metrics').expect(200)).text;
      expect(text).to.include('mthds_runs_started_total{mode="direct",delivery="blocking"} 3');
      expect(text).to.include('mthds_runs_finished_total{state="COMPLETED"} 2');
      expect(text).to.include('mthds_runs_rejected_total{mode="direct",error_type="StuffFactoryError"} 1');
      expect(text).to.not.include('mthds_runs_finished_total{state="FAILED"}');
      expect(text).to.include('mthds_run_duration_seconds_count{state="COMPLETED"} 2');
      expect(text).to.include('mthds_http_requests_total{route="/v1/execute",method="POST",status="200"} 2');
    });
  });

  describe('authentication', () => {
    describe('when AUTH_MODE=api_key', () => {
      const app = buildTestApp({ AUTH_MODE: 'api_key', API_KEY: 'right-key' });

      it('should accept the right bearer token', async () => {
        await request(app).get('/v1/version').set('Authorization', 'Bearer right-key').expect(200);
      });

      it('should accept a lower-case scheme', async () => {
        await request(app).get('/v1/version').set('Authorization', 'bearer right-key').expect(200);
      });

      it('should refuse a wrong token with 401 Unauthenticated and WWW-Authenticate', async () => {
        const response = await request(app).get('/v1/version').set('Authorization', 'Bearer wrong-key').expect(401);
        expect(response.headers['www-authenticate']).to.equal('Bearer');
        expect(response.headers['content-type']).to.equal(PROBLEM_JSON);
        expect(response.body).to.deep.equal({
          type: '/errors/unauthenticated/',
          title: 'Unauthenticated',
          status: 401,
          detail: 'Invalid authentication token.',
          instance: '/v1/version',
          request_id: response.headers['x-request-id'],
          error_type: 'Unauthenticated',
          error_domain: 'input',
          retryable: false,
        });
      });

      it('should refuse a missing token and another scheme', async () => {
        const missing = await request(app).get('/v1/version').expect(401);
        expect(missing.body.detail).to.include('Missing or malformed Authorization header');
        const basic = await request(app).get('/v1/version').set('Authorization', 'Basic cmlnaHQta2V5').expect(401);
        expect(basic.body.error_type).to.equal('Unauthenticated');
      });

      it('should keep /health open', async () => {
        await request(app).get('/health').expect(200);
      });
    });

    describe('when AUTH_MODE=jwt', () => {
      const app = buildTestApp({ AUTH_MODE: 'jwt', JWT_SECRET_KEY: JWT_SECRET });

      it('should accept a valid HS256 token with a user_id claim', async () => {
        const token = await signJwt({ user_id: 'user-123' });
        await request(app).get('/v1/version').set('Authorization', `Bearer ${token}`).expect(200);
      });

      it('should refuse an expired token', async () => {
        const token = await signJwt({ user_id: 'user-123' }, Math.floor(Date.now() / 1000) - 60);
        const response = await request(app).get('/v1/version').set('Authorization', `Bearer ${token}`).expect(401);
        expect(response.body.detail).to.equal('Token expired: obtain a new token.');
        expect(response.headers['www-authenticate']).to.equal('Bearer');
      });

      it('should refuse a token signed with another secret', async () => {
        const token = await signJwt({ user_id: 'user-123' }, '5m', 'another-secret-another-secret-0123456789');
        const response = await request(app).get('/v1/version').set('Authorization', `Bearer ${token}`).expect(401);
        expect(response.body.detail).to.include('Invalid token');
      });

      it('should refuse an unsigned alg:none token', async () => {
        const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
        const token = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ user_id: 'user-123' })}.`;
        const response = await request(app).get('/v1/version').set('Authorization', `Bearer ${token}`).expect(401);
        expect(response.body.error_type).to.equal('Unauthenticated');
      });

      it('should refuse a token without user_id, or with an unsafe one', async () => {
        const noClaim = await signJwt({ sub: 'user-123' });
        const first = await request(app).get('/v1/version').set('Authorization', `Bearer ${noClaim}`).expect(401);
        expect(first.body.detail).to.equal('Invalid token: missing user_id claim.');
        const unsafe = await signJwt({ user_id: '../etc' });
        const second = await request(app).get('/v1/version').set('Authorization', `Bearer ${unsafe}`).expect(401);
        expect(second.body.detail).to.include('path-safe');
      });

      it('should refuse a missing token and keep /health open', async () => {
        await request(app).get('/v1/version').expect(401);
        await request(app).get('/health').expect(200);
      });
    });

    describe('when AUTH_MODE=none', () => {
      it('should serve /v1 without a token', async () => {
        await request(buildTestApp({ AUTH_MODE: 'none' }))
          .get('/v1/version')
          .expect(200);
      });
    });
  });
});
