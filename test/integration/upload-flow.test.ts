/**
 * The n8n node's binary-input flow end to end (docs/uploads.md), in queue mode with a control plane and two
 * organizations' API keys, on the filesystem backend and on the S3 backend (s3rver on 127.0.0.1): ask a grant, PUT a
 * PDF to it, start a PipeExtract method on the returned `pipelex-storage://` reference with an `Idempotency-Key`, poll
 * `/results` as the node does (honouring `Retry-After`), read `main_stuff`, and resolve the run's references with
 * `/bulk`. Another organization's reference is refused with 403 on every path (inputs, resolve, bulk, direct GET).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Environment } from '../../shared/config/index.js';
import { closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { DOCUMENT_DATA_URL } from '../helpers/form-values.js';
import { pollUntil } from '../helpers/poll.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { listenOnLoopback } from '../helpers/raw-http.js';
import { type S3Server, startS3Server } from '../helpers/s3-server.js';

const ADMIN = 'upload-flow-admin-key';
const PDF = Buffer.from(DOCUMENT_DATA_URL.slice(DOCUMENT_DATA_URL.indexOf(',') + 1), 'base64');
const EXTRACT = `domain = "cv_reader"
main_pipe = "read_cv"

[pipe.read_cv]
type = "PipeExtract"
description = "Read a CV"
inputs = { cv = "Document" }
output = "Page[]"
model = "$extract_testing"
`;

interface Answer {
  status: number;
  // a parsed JSON body, read member by member as supertest's `body` is
  body: ReturnType<typeof JSON.parse>;
  text: string;
  headers: Headers;
}

/** Every string of a value that is a storage reference, in the order a depth-first walk meets them. */
function referencesIn(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string' && value.startsWith('pipelex-storage://') && !found.includes(value)) found.push(value);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) referencesIn(item, found);
  return found;
}

/** The objects of a value whose `url` is a storage reference (the files of a results body). */
function filesIn(value: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (value === null || typeof value !== 'object') return found;
  const object = value as Record<string, unknown>;
  if (typeof object['url'] === 'string' && object['url'].startsWith('pipelex-storage://')) found.push(object);
  for (const item of Object.values(object)) filesIn(item, found);
  return found;
}

interface Backend {
  name: string;
  /** The storage variables of the deployment, and how to stop what they need. */
  open(): Promise<{ environment: Environment; close(): Promise<void> }>;
  /** The grant's URL, checked for the backend. */
  expectGrantUrl(url: string, uri: string, base: string): void;
}

const BACKENDS: Backend[] = [
  {
    name: 'filesystem backend',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'mthds-upload-flow-'));
      return { environment: { STORAGE_DIR: dir }, close: async () => rmSync(dir, { recursive: true, force: true }) };
    },
    expectGrantUrl(url, uri, base) {
      const path = uri.replace('pipelex-storage://', '/v1/storage/');
      expect(url).to.match(new RegExp(`^${base}${path}\\?X-Mthds-Expires=\\d+&X-Mthds-Signature=[0-9a-f]{64}$`));
    },
  },
  {
    name: 'S3 backend (s3rver)',
    async open() {
      const s3: S3Server = await startS3Server();
      return { environment: s3.environment, close: () => s3.close() };
    },
    expectGrantUrl(url, uri) {
      const parsed = new URL(url);
      expect(parsed.pathname).to.equal(`/mthds-test/${uri.slice('pipelex-storage://'.length)}`);
      expect(parsed.searchParams.get('X-Amz-SignedHeaders')).to.equal('content-length;content-type;host;if-none-match');
      expect(parsed.searchParams.get('x-id')).to.equal('PutObject');
    },
  },
];

for (const backend of BACKENDS)
  describe(`upload flow of the n8n node, queue mode, ${backend.name}`, function () {
    this.timeout(120_000);
    const suite = useTestControlPlane();
    let deployment: QueueDeployment;
    let server: Server;
    let base: string;
    let storage: { environment: Environment; close(): Promise<void> };
    let acme: string;
    let globex: string;
    /** The organization of each key. */
    const organizations = new Map<string, string>();

    async function call(method: string, path: string, token: string, body?: unknown, headers = {}): Promise<Answer> {
      const response = await fetch(`${base}${path}`, {
        method,
        redirect: 'manual',
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const json = response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined;
      return { status: response.status, body: json, text, headers: response.headers };
    }

    async function keyOf(name: string): Promise<string> {
      const organization = await call('POST', '/v1/organizations', ADMIN, { name });
      const issued = await call('POST', '/v1/pipelex-api-keys', ADMIN, {
        label: 'n8n',
        organization_id: organization.body.org_id,
      });
      organizations.set(issued.body.api_key, organization.body.org_id);
      return issued.body.api_key;
    }

    /** What the node does for one binary input: a grant (never with an Idempotency-Key), then the PUT. */
    async function upload(token: string, bytes: Uint8Array): Promise<string> {
      const grant = await call('POST', '/v1/upload/grant', token, {
        filename: 'cv.pdf',
        content_type: 'application/pdf',
        size: bytes.length,
      });
      expect(grant.status, grant.text).to.equal(200);
      expect(Object.keys(grant.body)).to.deep.equal(['uri', 'url', 'headers', 'expires_at', 'max_bytes']);
      expect(grant.body.headers).to.deep.equal({ 'Content-Type': 'application/pdf', 'If-None-Match': '*' });
      expect(grant.body.max_bytes).to.equal(bytes.length);
      backend.expectGrantUrl(grant.body.url, grant.body.uri, base);
      const put = await fetch(grant.body.url, { method: 'PUT', headers: grant.body.headers, body: bytes });
      expect(put.status, await put.text()).to.equal(200);
      return grant.body.uri;
    }

    before(async () => {
      storage = await backend.open();
      deployment = startQueueDeployment({
        environment: {
          AUTH_MODE: 'api_key',
          API_KEY: ADMIN,
          INFERENCE_PROFILE: 'mock',
          STORAGE_INLINE_MEDIA_MAX_BYTES: '256',
          ...storage.environment,
        },
        controlPlane: suite.database,
      });
      server = await listenOnLoopback(createServer(deployment.app));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      acme = await keyOf('Acme');
      globex = await keyOf('Globex');
    });
    after(async () => {
      await new Promise((resolve) => server.close(resolve));
      await closeControlPlaneApps();
      await deployment.close();
      await storage.close();
    });

    it('should grant, take the PUT, run PipeExtract on the reference once per key, and resolve its files', async () => {
      const uri = await upload(acme, PDF);
      const organization = organizations.get(acme);
      expect(uri).to.match(new RegExp(`^pipelex-storage://${organization}/uploads/[0-9a-f]{32}-cv\\.pdf$`));

      const start = {
        mthds_contents: [EXTRACT],
        inputs: {
          cv: { concept: 'native.Document', content: { url: uri, filename: 'cv.pdf', mime_type: 'application/pdf' } },
        },
      };
      const key = { 'Idempotency-Key': 'exec-1:node-1:0:files-0123456789abcdef0123456789abcdef' };
      const started = await call('POST', '/v1/start', acme, start, key);
      expect(started.status, started.text).to.equal(202);
      const runId: string = started.body.pipeline_run_id;
      const again = await call('POST', '/v1/start', acme, start, key);
      expect(again.status).to.equal(202);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body.pipeline_run_id).to.equal(runId);

      const first = await call('GET', `/v1/runs/${runId}/results`, acme);
      const retryAfter = first.status === 202 ? Number(first.headers.get('retry-after')) : 0;
      if (first.status === 202) expect(Number.isInteger(retryAfter) && retryAfter >= 1, 'Retry-After').to.equal(true);
      const results = await pollUntil(
        () => call('GET', `/v1/runs/${runId}/results`, acme),
        (answer) => answer.status !== 202,
        60_000,
        retryAfter * 1000,
      );
      expect(results.status, results.text).to.equal(200);
      expect(results.body.pipeline_run_id).to.equal(runId);
      // a list's main stuff: a bare list here, `{items}` in the durable results body of docs/api.md#run-lifecycle
      const mainStuff = results.body.main_stuff;
      const pages = Array.isArray(mainStuff) ? mainStuff : mainStuff.items;
      expect(
        pages.map((page: { text_and_images: { text: { text: string } } }) => page.text_and_images.text.text),
      ).to.deep.equal(['Form value']);

      const references = referencesIn(results.body);
      expect(references.length, results.text.slice(0, 400)).to.be.at.least(1);
      expect(references.every((reference) => reference.startsWith(`pipelex-storage://${organization}/`))).to.equal(
        true,
      );
      const files = filesIn(results.body);
      expect(files.length).to.be.at.least(1);
      for (const file of files) {
        const link = await fetch(file['public_url'] as string);
        expect(link.status, String(file['public_url'])).to.equal(200);
        expect(Buffer.from(await link.arrayBuffer()).equals(PDF)).to.equal(true);
      }
      const bulk = await call('POST', '/v1/resolve-storage-url/bulk', acme, { uris: [uri, ...references, uri] });
      expect(bulk.status).to.equal(200);
      expect(bulk.body.items.map((item: { uri: string }) => item.uri)).to.deep.equal([uri, ...references, uri]);
      for (const item of bulk.body.items) {
        expect(item.error, item.uri).to.equal(null);
        expect(item.content_type).to.equal('application/pdf');
        const fetched = await fetch(item.url);
        expect(fetched.status, item.url).to.equal(200);
        expect(Buffer.from(await fetched.arrayBuffer()).equals(PDF)).to.equal(true);
      }
    });

    it('should refuse a grant’s repeated Idempotency-Key: a grant is never replayed', async () => {
      const body = { filename: 'cv.pdf', content_type: 'application/pdf', size: PDF.length };
      const key = { 'Idempotency-Key': 'exec-2:node-1:0' };
      expect((await call('POST', '/v1/upload/grant', acme, body, key)).status).to.equal(200);
      const repeated = await call('POST', '/v1/upload/grant', acme, body, key);
      expect(repeated.status).to.equal(409);
      expect(repeated.body.error_type).to.equal('IdempotencyKeyReusedError');
    });

    it('should refuse another organization’s reference with 403 on every path', async () => {
      const theirs = await upload(acme, PDF);
      const resolve = await call('POST', '/v1/resolve-storage-url', globex, { uri: theirs });
      expect(resolve.status).to.equal(403);
      expect(resolve.body.code).to.equal('storage_ownership_mismatch');
      const bulk = await call('POST', '/v1/resolve-storage-url/bulk', globex, { uris: [theirs] });
      expect(bulk.status).to.equal(200);
      expect(bulk.body.items[0]).to.deep.include({ uri: theirs, url: null, expires_at: null, content_type: null });
      expect(bulk.body.items[0].error.code).to.equal('forbidden');
      const direct = await call('GET', theirs.replace('pipelex-storage://', '/v1/storage/'), globex);
      expect(direct.status).to.equal(403);
      expect(direct.body.code).to.equal('storage_ownership_mismatch');
      const own = await call('GET', theirs.replace('pipelex-storage://', '/v1/storage/'), acme);
      expect(own.status).to.be.oneOf([200, 302]);
      const run = await call('POST', '/v1/start', globex, {
        mthds_contents: [EXTRACT],
        inputs: { cv: { url: theirs } },
      });
      expect(run.status).to.equal(403);
      expect(run.body.code).to.equal('storage_ownership_mismatch');
    });
  });
