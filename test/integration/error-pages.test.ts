import { expect } from 'chai';
import request from 'supertest';
import { ERROR_CATALOG, kebabErrorName } from '../../shared/errors/index.js';
import { buildTestApp } from '../helpers/test-app.js';

describe('error pages (GET /errors/…)', () => {
  const app = buildTestApp();

  describe('when ERROR_DOCS_URL is unset (the default)', () => {
    it("should give problem types that are paths of this server's own error pages", async () => {
      const problem = (await request(app).get('/v1/nothing-here').expect(404)).body as { type: string };
      expect(problem.type).to.equal('/errors/not-found/');
      const page = await request(app).get(problem.type).expect(200);
      expect(page.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).to.equal("default-src 'none'");
      expect(page.text).to.include('<h1>Not found</h1>');
    });

    it('should serve the page of a class from the catalog and docs/errors.md', async () => {
      const page = await request(app).get('/errors/validate-bundle-error/').expect(200);
      expect(page.text).to.equal(
        [
          '<!doctype html>',
          '<html lang="en"><head><meta charset="utf-8"><title>ValidateBundleError: Validate bundle</title></head>',
          '<body>',
          '<h1>Validate bundle</h1>',
          '<p><code>error_type: ValidateBundleError</code> · HTTP status 422 · error_domain input</p>',
          '<p>the bundle of a run (or of a build route&#39;s legacy envelope, codegen.md) fails validation; see <code>validation_errors</code></p>',
          '<p>The problem document names the request in <code>instance</code> and <code>request_id</code>; the server log has the full cause under that request id.</p>',
          '<p><a href="../">All errors of this runner</a></p>',
          '</body></html>',
          '',
        ].join('\n'),
      );
    });

    it('should serve a page for every error_type of the catalog, linked from the index', async () => {
      const index = (await request(app).get('/errors/').expect(200)).text;
      for (const [errorType, entry] of Object.entries(ERROR_CATALOG)) {
        const slug = kebabErrorName(errorType);
        expect(index).to.include(`<a href="./${slug}/"><code>${errorType}</code></a>`);
        const page = await request(app).get(`/errors/${slug}/`);
        expect([errorType, page.status, page.text.includes(`<h1>${entry.title}</h1>`)]).to.deep.equal([
          errorType,
          200,
          true,
        ]);
      }
    });

    it('should redirect a path without its trailing slash, so relative links resolve', async () => {
      const index = await request(app).get('/errors').expect(301);
      expect(index.headers['location']).to.equal('errors/');
      const page = await request(app).get('/errors/not-found').expect(301);
      expect(page.headers['location']).to.equal('not-found/');
    });

    it('should answer 404 for a name no error class has', async () => {
      const response = await request(app).get('/errors/no-such-error/').expect(404);
      expect(response.body).to.include({
        error_type: 'ErrorPageNotFoundError',
        code: 'error_page_not_found',
        detail: "No error type 'no-such-error' is documented. See GET /errors/ for the list.",
      });
    });

    it('should serve the pages without authentication', async () => {
      const guarded = buildTestApp({ AUTH_MODE: 'api_key', API_KEY: 'k' });
      const problem = (await request(guarded).get('/v1/version').expect(401)).body as { type: string };
      expect(problem.type).to.equal('/errors/unauthenticated/');
      await request(guarded).get(problem.type).expect(200);
    });
  });

  describe('when ERROR_DOCS_URL is set', () => {
    it('should prefix problem types with it', async () => {
      const elsewhere = buildTestApp({ ERROR_DOCS_URL: 'https://runner.example.com/' });
      const problem = (await request(elsewhere).get('/v1/nothing-here').expect(404)).body as { type: string };
      expect(problem.type).to.equal('https://runner.example.com/errors/not-found/');
    });
  });
});
