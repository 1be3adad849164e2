/**
 * The provider SDKs' `fetch` (shared/net/provider-fetch.ts), against a real HTTP server on 127.0.0.1: it sends what
 * `fetch` would send (an uncompressed answer asked for) and answers as `fetch` would answer — status, repeated headers,
 * a followed redirect, no body where the status has none — closes the connection when aborted, and hands what it does
 * not cover (a form body, a compression asked for) to the global `fetch`.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { providerFetch } from '../../../shared/net/index.js';

/** What the server saw of one request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('providerFetch (shared/net/provider-fetch.ts)', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  const closed: string[] = [];
  let answer: (request: IncomingMessage, response: ServerResponse) => void;

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        answer(request, response);
      });
      response.on('close', () => {
        if (!response.writableFinished) closed.push(request.url ?? '');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    seen.length = 0;
    closed.length = 0;
  });

  after(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  it('should send the method, headers and body, and answer the status, repeated headers and body', async () => {
    answer = (_request, response) => {
      response.writeHead(201, {
        'content-type': 'application/json',
        'set-cookie': ['a=1', 'b=2'],
        'x-request-id': 'r1',
      });
      response.end('{"ok":true}');
    };
    const response = await providerFetch(`${base}/v1/chat/completions?beta=1`, {
      method: 'POST',
      headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer sk-test' }),
      body: '{"model":"m"}',
    });
    expect(response.status).to.equal(201);
    expect(response.headers.get('x-request-id')).to.equal('r1');
    expect(response.headers.getSetCookie()).to.deep.equal(['a=1', 'b=2']);
    expect(await response.json()).to.deep.equal({ ok: true });
    expect(seen).to.have.length(1);
    expect(seen[0]).to.deep.include({ method: 'POST', url: '/v1/chat/completions?beta=1', body: '{"model":"m"}' });
    expect(seen[0]?.headers).to.deep.include({
      'content-type': 'application/json',
      authorization: 'Bearer sk-test',
      'accept-encoding': 'identity',
    });
  });

  it('should hand a call that asks for a compression itself to the global fetch, which decompresses', async () => {
    answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync('{"text":"Hello, Ada."}'));
    };
    const response = await providerFetch(`${base}/gzip`, {
      method: 'POST',
      headers: { 'accept-encoding': 'gzip' },
      body: new TextEncoder().encode('{}'),
    });
    expect(await response.json()).to.deep.equal({ text: 'Hello, Ada.' });
    expect(seen[0]?.body).to.equal('{}');
  });

  it('should follow a redirect that keeps the method and body', async () => {
    answer = (request, response) => {
      if (request.url === '/old') {
        response.writeHead(307, { location: '/new' });
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('moved');
    };
    const response = await providerFetch(`${base}/old`, { method: 'POST', body: 'payload' });
    expect(await response.text()).to.equal('moved');
    expect(seen.map(({ method, url, body }) => ({ method, url, body }))).to.deep.equal([
      { method: 'POST', url: '/old', body: 'payload' },
      { method: 'POST', url: '/new', body: 'payload' },
    ]);
  });

  it('should answer a status that has no body without one', async () => {
    answer = (_request, response) => {
      response.writeHead(204);
      response.end();
    };
    const response = await providerFetch(`${base}/empty`, { method: 'DELETE' });
    expect(response.status).to.equal(204);
    expect(response.body).to.equal(null);
  });

  it('should close the connection and reject with the abort when its signal aborts', async () => {
    answer = () => undefined;
    const controller = new AbortController();
    const pending = providerFetch(`${base}/slow`, { method: 'POST', body: '{}', signal: controller.signal });
    while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const reason = new Error('the run was cancelled');
    controller.abort(reason);
    const failure = await pending.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).to.equal(reason);
    while (closed.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(closed).to.deep.equal(['/slow']);
  });

  it('should hand a form body to the global fetch', async () => {
    answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('uploaded');
    };
    const form = new FormData();
    form.append('purpose', 'batch');
    const response = await providerFetch(`${base}/files`, { method: 'POST', body: form });
    expect(await response.text()).to.equal('uploaded');
    expect(seen[0]?.headers['content-type']).to.match(/^multipart\/form-data; boundary=/);
    expect(seen[0]?.body).to.include('name="purpose"');
  });
});
