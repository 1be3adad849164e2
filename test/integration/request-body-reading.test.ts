/**
 * How a request body is read off the socket (api/body/read-body.ts, docs/isolation.md#request-bodies): a plain body
 * with a `Content-Length` is copied chunk by chunk into one buffer of that length; a compressed or chunked body goes
 * through `express.raw`. Both give the same answer; a body its client abandons half-way costs nothing but itself.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { listenOnLoopback, openRawConnection } from '../helpers/raw-http.js';
import { buildTestApp } from '../helpers/test-app.js';

interface Answer {
  status: number;
  body: string;
}

const CONTENT = 'domain = "reading"\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\noutput = "Text"\nprompt = "Hi."\n';
const BODY = Buffer.from(JSON.stringify({ content: CONTENT }));

/** POST `/v1/lint` with the given headers, writing `chunks` one by one. */
function post(server: http.Server, headers: http.OutgoingHttpHeaders, chunks: Buffer[]): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/lint', headers, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

describe('reading request bodies (real HTTP)', () => {
  let server: http.Server;

  before(async () => {
    server = await listenOnLoopback(http.createServer(buildTestApp()));
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('should answer a plain body, a gzip body and a chunked body alike', async () => {
    const json = { 'Content-Type': 'application/json' };
    const plain = await post(server, { ...json, 'Content-Length': BODY.length }, [
      BODY.subarray(0, 7),
      BODY.subarray(7),
    ]);
    const compressed = gzipSync(BODY);
    const gzip = await post(server, { ...json, 'Content-Encoding': 'gzip', 'Content-Length': compressed.length }, [
      compressed,
    ]);
    const chunked = await post(server, { ...json, 'Transfer-Encoding': 'chunked' }, [
      BODY.subarray(0, 11),
      BODY.subarray(11),
    ]);
    expect(plain.status).to.equal(200);
    expect(JSON.parse(plain.body)).to.have.property('diagnostics');
    expect(gzip).to.deep.equal(plain);
    expect(chunked).to.deep.equal(plain);
  });

  it('should keep serving after a client abandons a body half-way', async () => {
    const { port } = server.address() as AddressInfo;
    const head = `POST /v1/lint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`;
    const connection = await openRawConnection(port, `${head}${BODY.subarray(0, 20).toString('utf8')}`);
    connection.socket.destroy();
    await connection.closed;
    const after = await post(server, { 'Content-Type': 'application/json', 'Content-Length': BODY.length }, [BODY]);
    expect(after.status).to.equal(200);
  });
});
