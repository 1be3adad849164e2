/**
 * A git smart-HTTP server on 127.0.0.1 for tests: a tiny node HTTP server in front of `git http-backend` (CGI), serving
 * every bare repository under a root directory as `http://127.0.0.1:<port>/<owner>/<repo>.git`. It counts pack fetches
 * (the upload-pack requests that ask for objects) and ref advertisements, so tests can tell a clone from a cache hit
 * and count how often a repository was contacted at all.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';

/** A running git server. */
export interface GitServer {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  /** The clone URL template mapping any host to this server (`METHOD_REF_CLONE_URL_TEMPLATE`). */
  readonly template: string;
  /** Pack fetches (clones) served so far. */
  fetchCount(): number;
  /** Ref advertisements served so far: every `git ls-remote` and every clone starts with one. */
  contactCount(): number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function isPackFetch(body: Buffer, encoding: string | undefined): boolean {
  const text = (encoding === 'gzip' ? gunzipSync(body) : body).toString('latin1');
  return text.includes('command=fetch') || /[0-9a-f]{4}want [0-9a-f]{40}/.test(text);
}

async function serveCgi(root: string, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(url.pathname),
    REQUEST_METHOD: req.method ?? 'GET',
    QUERY_STRING: url.search.replace(/^\?/, ''),
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    CONTENT_LENGTH: String(body.length),
    REMOTE_ADDR: '127.0.0.1',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  if (req.headers['content-encoding']) env['HTTP_CONTENT_ENCODING'] = String(req.headers['content-encoding']);
  if (req.headers['git-protocol']) env['GIT_PROTOCOL'] = String(req.headers['git-protocol']);
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.on('error', () => undefined);
  child.stdin.end(body);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  const output = Buffer.concat(chunks);
  const split = output.indexOf('\r\n\r\n') >= 0 ? output.indexOf('\r\n\r\n') : output.indexOf('\n\n');
  const separator = output.indexOf('\r\n\r\n') >= 0 ? 4 : 2;
  const headerText = output.subarray(0, split).toString('latin1');
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of headerText.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
    else headers[name] = value;
  }
  res.writeHead(status, headers).end(output.subarray(split + separator));
}

/**
 * Serve the bare repositories under `root` (laid out `<owner>/<repo>.git`).
 * @param root - a directory of bare repositories
 */
export async function startGitServer(root: string): Promise<GitServer> {
  let fetches = 0;
  let contacts = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (req.method === 'GET' && pathname.endsWith('/info/refs')) contacts += 1;
      if (
        req.method === 'POST' &&
        pathname.endsWith('/git-upload-pack') &&
        isPackFetch(body, req.headers['content-encoding'] as string | undefined)
      )
        fetches += 1;
      await serveCgi(root, req, res, body);
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    template: `${baseUrl}/{owner}/{repo}.git`,
    fetchCount: () => fetches,
    contactCount: () => contacts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
