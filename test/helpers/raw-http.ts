/**
 * Raw HTTP calls for load tests: bodies sent as prepared bytes and answers drained without parsing, so the test
 * client adds as little work as possible to the event loop it shares with the server under test; and raw TCP
 * connections that send a request's start and nothing more (half-open and slow clients).
 */

import type { Server } from 'node:http';
import http from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/** An answer: status, headers and the body as text (empty when `keepBody` is off). */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * Send one request to a listening server.
 * @param server - the server (listening on loopback)
 * @param method - `GET` or `POST`
 * @param path - the route
 * @param body - prepared JSON bytes, for a POST
 * @param options - `keepBody`: keep the answer's text (default true); `signal`: abort the request
 * @returns the answer
 */
export function rawRequest(
  server: Server,
  method: 'GET' | 'POST',
  path: string,
  body?: Buffer,
  options: { keepBody?: boolean; signal?: AbortSignal } = {},
): Promise<RawAnswer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = body
      ? { 'Content-Type': 'application/json', 'Content-Length': body.length }
      : {};
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers,
        agent: false,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          if (options.keepBody !== false) chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Start listening on an ephemeral loopback port.
 * @param server - a server not yet listening
 * @returns the same server, listening
 */
export async function listenOnLoopback(server: Server): Promise<Server> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/**
 * The `q`-quantile of samples (nearest rank).
 * @param samples - values, any order
 * @param q - between 0 and 1
 */
export function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** A raw TCP connection to a server, as a client that may never finish its request sees it. */
export interface RawConnection {
  readonly socket: Socket;
  /** Everything the server sent so far, as text. */
  readonly received: () => string;
  /** Resolves once the connection is closed (by either side), with what the server sent. */
  readonly closed: Promise<string>;
}

/**
 * Open a TCP connection and send `head` (the start of a request, possibly incomplete), nothing more.
 * @param port - the server's port on 127.0.0.1
 * @param head - bytes sent once connected (`''`: none, a silent connection)
 * @param localAddress - the client's address (any of 127.0.0.0/8 on Linux, to act as distinct clients)
 * @returns the connection, once connected (a connection the server closes at once still resolves)
 */
export function openRawConnection(port: number, head: string, localAddress = '127.0.0.1'): Promise<RawConnection> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => undefined);
    const closed = new Promise<string>((done) => socket.once('close', () => done(text)));
    const connection = { socket, received: () => text, closed };
    socket.once('connect', () => {
      if (head) socket.write(head);
      resolve(connection);
    });
    socket.once('close', () => resolve(connection));
  });
}
