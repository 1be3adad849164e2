/**
 * The `/console` route (docs/console.md#serving) on a folder of its own: the page for every path under `/console`
 * (the browser's router reads it) with a same-origin policy and `no-cache`; hashed assets cached for a year; an unknown
 * asset a 404, never the page; and, when the console was not built, a 503 `ConsoleNotBuiltError` problem document.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { problemHandler, routeNotFound } from '../../api/middleware/problem-handler.js';
import { consoleRouter } from '../../api/routes/console.js';
import { createLogger } from '../../shared/observability/index.js';

function appOn(directory: string) {
  const app = express();
  app.use(consoleRouter(directory));
  app.use(routeNotFound);
  app.use(
    problemHandler({ docsUrl: 'http://errors.test', disclosure: 'verbose', logger: createLogger('silent', 'test') }),
  );
  return app;
}

describe('GET /console (the console route)', () => {
  let built: string;
  let empty: string;

  before(() => {
    built = mkdtempSync(join(tmpdir(), 'mthds-console-route-'));
    mkdirSync(join(built, 'assets'));
    writeFileSync(join(built, 'index.html'), '<!doctype html><script src="/console/assets/index-abc123.js"></script>');
    writeFileSync(join(built, 'assets', 'index-abc123.js'), 'console.log(1);');
    empty = mkdtempSync(join(tmpdir(), 'mthds-console-route-empty-'));
  });
  after(() => {
    rmSync(built, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  it('should answer the page for /console and any path under it, revalidated, same origin only', async () => {
    for (const path of ['/console', '/console/', '/console/runs/some-run', '/console/methods/mt_x?tab=run']) {
      const answer = await request(appOn(built)).get(path).expect(200);
      expect(answer.text, path).to.include('/console/assets/index-abc123.js');
      expect(answer.headers['content-type']).to.match(/^text\/html/);
      expect(answer.headers['cache-control']).to.equal('no-cache');
      expect(answer.headers['content-security-policy']).to.match(/^default-src 'self'; script-src 'self';/);
      expect(answer.headers['x-content-type-options']).to.equal('nosniff');
    }
  });

  it('should serve a hashed asset as immutable for a year, and answer an unknown one 404', async () => {
    const asset = await request(appOn(built)).get('/console/assets/index-abc123.js').expect(200);
    expect(asset.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).to.match(/javascript/);
    const missing = await request(appOn(built)).get('/console/assets/index-zzz.js').expect(404);
    expect(missing.headers['content-type']).to.match(/^application\/problem\+json/);
  });

  it('should answer 503 ConsoleNotBuiltError, saying how to build it, when the console was not built', async () => {
    const answer = await request(appOn(empty)).get('/console/methods').expect(503);
    expect(answer.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(answer.body).to.include({ error_type: 'ConsoleNotBuiltError', code: 'console_not_built', status: 503 });
    expect(answer.body.detail).to.include('npm run build');
  });
});
