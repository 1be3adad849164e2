import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp } from '../helpers/test-app.js';

const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

describe('pages: GET / and GET /docs', () => {
  describe('GET /', () => {
    it('should answer a client that does not ask for HTML with the service banner', async () => {
      const response = await request(buildTestApp()).get('/').set('Accept', 'application/json').expect(200);
      expect(response.headers['content-type']).to.equal('application/json');
      expect(response.body).to.deep.equal({
        message: 'MTHDS runner',
        docs_url: '/docs',
        openapi_url: '/v1/openapi.json',
      });
    });

    it('should send a browser to /docs', async () => {
      await request(buildTestApp())
        .get('/')
        .set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')
        .expect(302)
        .expect('Location', '/docs');
    });
  });

  describe('GET /docs', () => {
    it('should serve the page, allowed to load from this server only', async () => {
      const response = await request(buildTestApp()).get('/docs').expect(200);
      expect(response.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).to.equal(CONTENT_SECURITY_POLICY);
      expect(response.text).to.include('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
      expect(response.text).to.not.match(/(https?:)?\/\/[a-z]/i);
    });

    it('should serve Swagger UI and the page files from this server', async () => {
      const app = buildTestApp();
      for (const [file, type] of [
        ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
        ['swagger-ui.css', 'text/css; charset=utf-8'],
        ['favicon-32x32.png', 'image/png'],
        ['docs-page.js', 'text/javascript; charset=utf-8'],
        ['docs-page.css', 'text/css; charset=utf-8'],
      ]) {
        const response = await request(app).get(`/docs/assets/${file}`).expect(200);
        expect(response.headers['content-type'], file).to.equal(type);
      }
    });

    it('should serve nothing else of those folders', async () => {
      const app = buildTestApp();
      for (const path of ['swagger-initializer.js', 'index.html', 'package.json', '..%2Fpackage.json']) {
        const response = await request(app).get(`/docs/assets/${path}`).expect(404);
        expect(response.body.error_type, path).to.equal('NotFound');
      }
    });
  });

  describe('when the deployment authenticates callers', () => {
    it('should keep the pages open and the OpenAPI document behind the token', async () => {
      const app = buildTestApp({ AUTH_MODE: 'api_key', API_KEY: 'a-test-api-key' });
      await request(app).get('/docs').expect(200);
      await request(app).get('/docs/assets/docs-page.js').expect(200);
      await request(app).get('/').set('Accept', 'application/json').expect(200);
      await request(app).get('/v1/openapi.json').expect(401);
      await request(app).get('/v1/openapi.json').set('Authorization', 'Bearer a-test-api-key').expect(200);
    });
  });

  describe('an unknown route', () => {
    it('should point to the API reference and the OpenAPI document', async () => {
      const response = await request(buildTestApp()).get('/v2/nothing').expect(404);
      expect(response.body).to.include({
        detail:
          'No route GET /v2/nothing. The served routes are listed in the API reference at /docs and in the OpenAPI document at GET /v1/openapi.json.',
      });
      expect(response.body).to.not.have.property('code');
    });
  });
});
