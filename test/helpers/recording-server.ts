/**
 * An app served on a real port (127.0.0.1, port 0) that records every exchange as it crossed the wire: the request's
 * method, URL and body, the response's status, content type and body. Clients in other processes (the `mthds` CLI)
 * reach it like any server; the conformance suite checks each recorded response against the reference OpenAPI.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request and its response, bodies as UTF-8 text. */
export interface Exchange {
  method: string;
  /** Path and query, as sent. */
  url: string;
  requestBody: string;
  status: number;
  /** The media type of the response, parameters (`charset`) removed; empty when none was sent. */
  contentType: string;
  responseBody: string;
}

/** A running recording server. */
export interface RecordingServer {
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  /** Every finished exchange, in the order the responses ended. */
  readonly exchanges: Exchange[];
  close(): Promise<void>;
}

type Chunk = string | Uint8Array;

function chunkBuffer(chunk: unknown): Buffer | undefined {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return chunk instanceof Uint8Array ? Buffer.from(chunk) : undefined;
}

/** Copy every body chunk the app reads from the request, whether it reads in flowing or paused mode. */
function tapRequest(req: IncomingMessage): Buffer[] {
  const chunks: Buffer[] = [];
  const emit = req.emit.bind(req);
  req.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event === 'data') {
      const buffer = chunkBuffer(args[0]);
      if (buffer) chunks.push(buffer);
    }
    return emit(event, ...args);
  }) as IncomingMessage['emit'];
  return chunks;
}

/** Copy every body chunk the app writes, and call `done` with them when the response ends. */
function tapResponse(res: ServerResponse, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (chunk: Chunk, ...rest: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: Chunk, ...rest: unknown[]) => {
    const buffer = chunkBuffer(chunk);
    if (buffer) chunks.push(buffer);
    return write(chunk, ...rest);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    const buffer = chunkBuffer(args[0]);
    if (buffer) chunks.push(buffer);
    done(Buffer.concat(chunks));
    return end(...args);
  }) as ServerResponse['end'];
}

/**
 * Serve an app (an Express app or any request listener) and record its exchanges.
 * @param app - the request listener
 */
export async function startRecordingServer(app: RequestListener): Promise<RecordingServer> {
  const exchanges: Exchange[] = [];
  const server = createServer((req, res) => {
    const requestChunks = tapRequest(req);
    tapResponse(res, (body) => {
      const contentType = String(res.getHeader('content-type') ?? '');
      exchanges.push({
        method: req.method ?? '',
        url: req.url ?? '',
        requestBody: Buffer.concat(requestChunks).toString('utf8'),
        status: res.statusCode,
        contentType: contentType.split(';')[0]!.trim().toLowerCase(),
        responseBody: body.toString('utf8'),
      });
    });
    app(req, res);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}
