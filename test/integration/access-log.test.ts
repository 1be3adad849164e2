import { connect } from 'node:net';
import { expect } from 'chai';
import type { Express } from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { selectInferenceBackend } from '../../shared/inference/index.js';
import { testSettings } from '../helpers/config-dir.js';
import { pollUntil } from '../helpers/poll.js';
import { sharedDiagnostics } from '../helpers/test-app.js';

/** An app whose log lines are kept, parsed, in `lines`. */
function loggedApp(): { app: Express; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info', base: null, timestamp: false },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  const settings = testSettings({ INFERENCE_PROFILE: 'mock' });
  const inference = selectInferenceBackend(settings.inference, settings.serviceConfigDir, {});
  return { app: createApp({ settings, logger, inference, diagnostics: sharedDiagnostics() }), lines };
}

function accessLines(lines: Record<string, unknown>[]): Record<string, unknown>[] {
  return lines.filter((line) => line['msg'] === 'http:request');
}

/** The line with its one unpredictable field checked and removed. */
function withoutDuration(line: Record<string, unknown> | undefined): Record<string, unknown> {
  const { duration_ms: duration, ...rest } = line ?? {};
  expect(duration).to.be.a('number').and.to.be.at.least(0);
  return rest;
}

describe('access log', () => {
  it('should log one line per request, with its id, method, path without query, status and duration', async () => {
    const { app, lines } = loggedApp();
    await request(app).get('/v1/version?api_key=s3cret&x=1').set('X-Request-ID', 'access-1').expect(200);
    expect(accessLines(lines).map(withoutDuration)).to.deep.equal([
      { level: 30, request_id: 'access-1', method: 'GET', path: '/v1/version', status: 200, msg: 'http:request' },
    ]);
    expect(JSON.stringify(lines)).to.not.include('s3cret');
  });

  it('should log refused requests with their status, after the problem handler line', async () => {
    const { app, lines } = loggedApp();
    await request(app).get('/v1/execute').set('X-Request-ID', 'access-2').expect(405);
    await request(app)
      .post('/v1/validate')
      .set('X-Request-ID', 'access-3')
      .set('Content-Type', 'text/plain')
      .send('{}')
      .expect(415);
    expect(accessLines(lines).map(withoutDuration)).to.deep.equal([
      { level: 30, request_id: 'access-2', method: 'GET', path: '/v1/execute', status: 405, msg: 'http:request' },
      { level: 30, request_id: 'access-3', method: 'POST', path: '/v1/validate', status: 415, msg: 'http:request' },
    ]);
    expect(lines.filter((line) => line['msg'] !== 'http:request').map((line) => line['request_id'])).to.deep.equal([
      'access-2',
      'access-3',
    ]);
  });

  it('should mark a request whose client left before the response was over', async () => {
    const { app, lines } = loggedApp();
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const received = new Promise((resolve) => server.once('request', resolve));
    const socket = connect(port, '127.0.0.1');
    try {
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        'POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Request-ID: access-4\r\n\r\n{"mthds_contents":',
      );
      await received;
      socket.destroy();
      await pollUntil(
        async () => accessLines(lines).length,
        (count) => count > 0,
      );
    } finally {
      socket.destroy();
      server.close();
      server.closeAllConnections();
    }
    // the status is the one set when the client left: the body reader's refusal of the cut body
    expect(accessLines(lines).map(withoutDuration)).to.deep.equal([
      {
        level: 30,
        request_id: 'access-4',
        method: 'POST',
        path: '/v1/validate',
        status: 422,
        aborted: true,
        msg: 'http:request',
      },
    ]);
  });
});
