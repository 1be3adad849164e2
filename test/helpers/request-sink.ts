/**
 * A fake HTTP destination on 127.0.0.1 for SSRF tests: it counts every request it receives, so a test can assert that
 * a refused destination saw zero. By default it answers 200 `text/plain` with a secret marker body; a test may give
 * its own answer (a redirect, a large body, a stall).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** The marker the default answer carries, to spot a leak in a run result. */
export const SINK_SECRET = 'sink-secret-7f3a';

/** A running sink. */
export interface RequestSink {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Requests received so far (method and path). */
  readonly received: { method: string; path: string }[];
  close(): Promise<void>;
}

/**
 * Start a sink.
 * @param answer - how to answer each request; 200 text/plain {@link SINK_SECRET} by default
 */
export async function startRequestSink(
  answer?: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<RequestSink> {
  const received: { method: string; path: string }[] = [];
  const server: Server = createServer((req, res) => {
    received.push({ method: req.method ?? '', path: req.url ?? '' });
    req.resume();
    if (answer) answer(req, res);
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(SINK_SECRET);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
