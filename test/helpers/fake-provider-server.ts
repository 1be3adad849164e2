/**
 * The HTTP part every fake provider shares: a real server on 127.0.0.1 (port 0) that records each JSON request and
 * answers through a replaceable handler, or with the provider's own 401 when the request carries no credential.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a fake received. */
export interface RecordedProviderRequest<Body> {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Body;
  /** When the request arrived, in epoch ms. */
  receivedAt: number;
  /** When its answer was sent, in epoch ms (unset while it is being answered). */
  answeredAt?: number;
  /** When the client closed the connection before the answer was sent (an aborted call), in epoch ms. */
  closedAt?: number;
}

/** What a fake answers: status (200 by default), extra headers, a JSON body, after an optional wait. */
export interface FakeProviderReply {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
  /** Answer only once this settles (see {@link arrivalGate}), then after `delayMs` if set. */
  after?: Promise<unknown>;
  /** Milliseconds to wait before answering (simulated provider latency). */
  delayMs?: number;
}

/**
 * A gate that opens once `count` calls have passed it: give each request's reply `after: gate()`, and no request is
 * answered before `count` of them are in flight at once. Calls that never all come leave every request unanswered
 * (the test then fails on its own deadline).
 * @param count - the requests to wait for
 * @returns pass the gate: counts one request, resolves once `count` have
 */
export function arrivalGate(count: number): () => Promise<void> {
  let passed = 0;
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => {
    passed += 1;
    if (passed === count) open();
    return opened;
  };
}

/** A running fake. */
export interface FakeProviderServer<Body> {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly requests: RecordedProviderRequest<Body>[];
  respondWith(handler: (request: RecordedProviderRequest<Body>) => FakeProviderReply): void;
  /**
   * Answer the next requests with these replies, one each, before the handler answers again.
   * @param replies - e.g. a 429 with `retry-after`
   */
  replyNext(...replies: FakeProviderReply[]): void;
  close(): Promise<void>;
}

/** How a provider decides whether a request is authorised, what it answers otherwise, and its default reply. */
export interface FakeProviderWire<Body> {
  authorised(headers: IncomingHttpHeaders): boolean;
  unauthorised: FakeProviderReply;
  defaultReply(request: RecordedProviderRequest<Body>): FakeProviderReply;
}

/**
 * Start a fake provider on 127.0.0.1, port 0.
 * @param wire - the provider's authorisation rule and replies
 */
export async function startFakeProviderServer<Body>(wire: FakeProviderWire<Body>): Promise<FakeProviderServer<Body>> {
  const requests: RecordedProviderRequest<Body>[] = [];
  let handler = wire.defaultReply;
  const next: FakeProviderReply[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedProviderRequest<Body> = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: (text ? JSON.parse(text) : {}) as Body,
        receivedAt: Date.now(),
      };
      requests.push(recorded);
      const reply = wire.authorised(req.headers) ? (next.shift() ?? handler(recorded)) : wire.unauthorised;
      let delayed: NodeJS.Timeout | undefined;
      res.on('close', () => {
        if (recorded.answeredAt !== undefined) return;
        recorded.closedAt = Date.now();
        clearTimeout(delayed);
      });
      const answer = () => {
        if (recorded.closedAt !== undefined) return;
        recorded.answeredAt = Date.now();
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.body));
      };
      const answerInTime = () => {
        if (reply.delayMs) delayed = setTimeout(answer, reply.delayMs);
        else answer();
      };
      if (reply.after) void reply.after.then(answerInTime, answerInTime);
      else answerInTime();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    respondWith(replacement) {
      handler = replacement;
    },
    replyNext(...replies) {
      next.push(...replies);
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
