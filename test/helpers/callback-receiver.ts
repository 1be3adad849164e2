/**
 * A completion-callback receiver for tests: a real HTTP server on 127.0.0.1 (port 0) that records every delivery and
 * answers with a scripted status (or never answers).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A delivery the receiver got. */
export interface ReceivedCallback {
  headers: IncomingHttpHeaders;
  body: string;
  /** Status the receiver answered (undefined when it did not answer). */
  answered?: number;
}

/** A running receiver. */
export interface CallbackReceiver {
  readonly url: string;
  readonly received: ReceivedCallback[];
  /** Resolves once `count` deliveries were answered with a 2xx. */
  successes(count: number): Promise<ReceivedCallback[]>;
  close(): Promise<void>;
}

/**
 * Start a receiver.
 * @param script - status per delivery in order (`'hang'` never answers); the last entry repeats
 */
export async function startCallbackReceiver(script: (number | 'hang')[] = [200]): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: ReceivedCallback = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const step = script[Math.min(received.length, script.length - 1)]!;
      received.push(entry);
      if (step === 'hang') return;
      entry.answered = step;
      res.writeHead(step).end();
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const ok = () => received.filter((entry) => entry.answered !== undefined && entry.answered < 300);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    successes: (count) =>
      new Promise((resolve) => {
        const check = () => (ok().length >= count ? resolve(ok()) : waiters.push(check));
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
