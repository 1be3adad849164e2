import { expect } from 'chai';
import { pollUntil } from '../helpers/poll.js';
import { type ServiceProcess, spawnApi } from '../helpers/processes.js';
import { openRawConnection, type RawConnection } from '../helpers/raw-http.js';

/** The API's descriptor limit here: the flood below is larger, as 19,980 connections were for the default limit. */
const MAX_OPEN_FILES = 256;
/** A request's start, without the blank line that ends its headers: the server waits for the rest. */
const UNFINISHED_HEAD = 'GET /health HTTP/1.1\r\nHost: flood\r\n';
const HEALTH = { status: 'ok', message: 'MTHDS runner is running' };

async function health(baseUrl: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5000) });
  return { status: response.status, body: await response.json() };
}

/** `/health` as a new client sees it: its answer, or the reason it got none. */
function healthOrFailure(baseUrl: string): Promise<{ status: number; body: unknown } | string> {
  return health(baseUrl).catch((error: Error) => `no answer: ${error.message}`);
}

function isOpen(connection: RawConnection): boolean {
  return !connection.socket.destroyed;
}

describe('regression: connection caps and request-head timeouts (issue 29, finding 11)', function () {
  // a flood past the descriptor limit can fill the listen backlog for a moment, and the kernel then resends the SYNs
  // of the connections still waiting with its backoff (1 s, 2 s, 4 s, …): a loaded machine needs that long
  this.timeout(120_000);
  const started: ServiceProcess[] = [];
  const connections: RawConnection[] = [];

  afterEach(async () => {
    for (const connection of connections.splice(0)) connection.socket.destroy();
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
  });

  async function api(environment: Record<string, string>): Promise<{ baseUrl: string; port: number }> {
    const { api: process, baseUrl } = await spawnApi(environment, { maxOpenFiles: MAX_OPEN_FILES });
    started.push(process);
    return { baseUrl, port: Number(new URL(baseUrl).port) };
  }

  async function open(port: number, count: number, head: string, localAddress: string): Promise<RawConnection[]> {
    const opened = await Promise.all(Array.from({ length: count }, () => openRawConnection(port, head, localAddress)));
    connections.push(...opened);
    return opened;
  }

  it('should keep answering other clients while one client opens more half-open connections than the process has descriptors', async () => {
    const { baseUrl, port } = await api({
      HTTP_MAX_CONNECTIONS: '120',
      HTTP_MAX_CONNECTIONS_PER_IP: '40',
      HTTP_HEADERS_TIMEOUT_MS: '60000',
    });
    const flood = await open(port, MAX_OPEN_FILES + 100, UNFINISHED_HEAD, '127.0.0.2');
    // the client keeps its 40 connections; every one beyond is closed as it arrives, unanswered
    await pollUntil(
      async () => flood.filter(isOpen).length,
      (count) => count === 40,
      20000,
    );
    expect(flood.filter((connection) => !isOpen(connection)).map((connection) => connection.received())).to.deep.equal(
      Array.from({ length: MAX_OPEN_FILES + 60 }, () => ''),
    );
    expect(await health(baseUrl)).to.deep.equal({ status: 200, body: HEALTH });
    const [refused] = await open(port, 1, UNFINISHED_HEAD, '127.0.0.2');
    expect(await refused!.closed, 'one more connection of the flooding client').to.equal('');
    expect(
      flood.filter(isOpen),
      'the flooding connections were not reaped: the per-address cap made room',
    ).to.have.length(40);
  });

  it('should make room for a new client by closing the oldest half-open connection when many clients fill every slot', async () => {
    const { baseUrl, port } = await api({
      HTTP_MAX_CONNECTIONS: '60',
      HTTP_MAX_CONNECTIONS_PER_IP: '10',
      HTTP_HEADERS_TIMEOUT_MS: '60000',
    });
    const flood: RawConnection[] = [];
    for (let client = 2; client < 32; client += 1)
      flood.push(...(await open(port, 10, UNFINISHED_HEAD, `127.0.1.${client}`)));
    // 300 connections from 30 addresses, none over its address's cap: the newest 60 are kept
    await pollUntil(
      async () => flood.filter(isOpen).length,
      (count) => count === 60,
      20000,
    );
    expect(flood.slice(-60).every(isOpen), 'the newest connections are the ones kept').to.equal(true);
    expect(await health(baseUrl)).to.deep.equal({ status: 200, body: HEALTH });
    // the server closed the connection it reaped before it answered /health; the client may see that close after the
    // answer, so the count is waited for, not read at once
    const kept = await pollUntil(
      async () => flood.filter(isOpen).length,
      (count) => count <= 59,
      5000,
    );
    expect(kept, 'the oldest half-open connection made room for /health').to.equal(59);
    expect(flood.slice(-60, -50).filter(isOpen), 'it was one of the oldest kept').to.have.length(9);
  });

  it('should answer 408 and close connections that do not finish their headers within HTTP_HEADERS_TIMEOUT_MS, so new clients get in', async () => {
    const { baseUrl, port } = await api({
      HTTP_MAX_CONNECTIONS: '20',
      HTTP_MAX_CONNECTIONS_PER_IP: '0',
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_REQUEST_TIMEOUT_MS: '5000',
    });
    const silent = await open(port, 10, '', '127.0.0.2');
    const slow = await open(port, 10, UNFINISHED_HEAD, '127.0.0.3');
    // the slow clients send a header byte now and then, never the end of the headers
    const drip = setInterval(() => {
      for (const connection of slow) if (isOpen(connection)) connection.socket.write('X');
    }, 100);
    try {
      const answers = await Promise.all([...silent, ...slow].map((connection) => connection.closed));
      expect(answers.map((text) => text.split('\r\n')[0])).to.deep.equal(
        answers.map(() => 'HTTP/1.1 408 Request Timeout'),
      );
    } finally {
      clearInterval(drip);
    }
    expect(
      await pollUntil(
        () => healthOrFailure(baseUrl),
        (answer) => typeof answer !== 'string',
      ),
    ).to.deep.equal({
      status: 200,
      body: HEALTH,
    });
  });
});
