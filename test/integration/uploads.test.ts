/**
 * Uploads and storage references on the filesystem backend (docs/uploads.md), over real HTTP in `jwt` mode with two
 * owners: `POST /v1/upload` and its size cap, an upload grant and its signed PUT with every S3-style refusal, the
 * resolve routes, a `pipelex-storage://` reference as a Document input, and another owner's reference refused with
 * 403 on every path (inputs, resolve, bulk, direct GET), traversal spellings with 422.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { FsObjectStore } from '../../shared/storage/index.js';
import { DOCUMENT_DATA_URL } from '../helpers/form-values.js';
import { JWT_ENVIRONMENT, signTestJwt } from '../helpers/jwt.js';
import { listenOnLoopback } from '../helpers/raw-http.js';
import { buildTestApp } from '../helpers/test-app.js';

const PDF = Buffer.from(DOCUMENT_DATA_URL.slice(DOCUMENT_DATA_URL.indexOf(',') + 1), 'base64');
const EXTRACT = `domain = "upload_flow"
main_pipe = "read"

[pipe.read]
type = "PipeExtract"
description = "Read a document"
inputs = { doc = "Document" }
output = "Page[]"
model = "$extract_testing"
`;
const UPLOAD_URI = /^pipelex-storage:\/\/alice\/uploads\/[0-9a-f]{32}-cv\.pdf$/;

/** Spellings that try to leave an owner's scope, or hide a path in an encoding. */
const TRAVERSALS = [
  'pipelex-storage://alice/../bob/uploads/x.pdf',
  'pipelex-storage://alice/uploads/../../bob/uploads/x.pdf',
  'pipelex-storage://alice/uploads/..%2f..%2fbob%2fuploads%2fx.pdf',
  'pipelex-storage:///etc/uploads/passwd',
  'pipelex-storage://alice/uploads/\uff0e\uff0e',
  'pipelex-storage://alice\\..\\bob/uploads/x.pdf',
  'pipelex-storage://alice/results/run-1.json',
  'pipelex-storage://alice/uploads/x.pdf?download=1',
  'pipelex-storage://x/y',
];

interface Answer {
  status: number;
  // a parsed JSON body, read member by member as supertest's `body` is
  body: ReturnType<typeof JSON.parse>;
  text: string;
  headers: Headers;
}

describe('uploads and storage references (filesystem backend)', function () {
  this.timeout(60000);
  let dir: string;
  let server: Server;
  let base: string;
  let alice: string;
  let bob: string;
  let clock: number;

  async function call(method: string, path: string, token: string | undefined, body?: unknown): Promise<Answer> {
    const response = await fetch(path.startsWith('http') ? path : `${base}${path}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  }

  async function put(url: string, headers: Record<string, string>, body: Uint8Array): Promise<Answer> {
    const response = await fetch(url, { method: 'PUT', headers, body });
    return { status: response.status, body: undefined, text: await response.text(), headers: response.headers };
  }

  async function grantAndPut(token: string, bytes: Uint8Array = PDF): Promise<string> {
    const grant = await call('POST', '/v1/upload/grant', token, {
      filename: 'cv.pdf',
      content_type: 'application/pdf',
      size: bytes.length,
    });
    expect(grant.status, grant.text).to.equal(200);
    expect((await put(grant.body.url, grant.body.headers, bytes)).status).to.equal(200);
    return grant.body.uri;
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mthds-uploads-'));
    clock = Date.now();
    const app = buildTestApp(
      { ...JWT_ENVIRONMENT, STORAGE_DIR: dir, STORAGE_UPLOAD_MAX_MIB: '1', INFERENCE_PROFILE: 'mock' },
      undefined,
      undefined,
      () => clock,
    );
    server = await listenOnLoopback(createServer(app));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    alice = await signTestJwt({ user_id: 'alice' });
    bob = await signTestJwt({ user_id: 'bob' });
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  describe('POST /v1/upload', () => {
    it('should store the bytes under the caller’s uploads/ and answer their reference', async () => {
      const answer = await call('POST', '/v1/upload', alice, {
        filename: 'cv.pdf',
        data: PDF.toString('base64'),
        content_type: 'application/pdf',
      });
      expect(answer.status).to.equal(200);
      expect(Object.keys(answer.body)).to.deep.equal(['uri', 'filename']);
      expect(answer.body.filename).to.equal('cv.pdf');
      expect(answer.body.uri).to.match(UPLOAD_URI);
      const name = answer.body.uri.split('/').at(-1);
      const stored = await new FsObjectStore(dir).get({ scope: 'alice', leaf: 'uploads', name });
      expect(Buffer.from(stored!.body).equals(PDF)).to.equal(true);
      expect(stored!.contentType).to.equal('application/pdf');
    });

    it('should refuse a file over STORAGE_UPLOAD_MAX_MIB with 413 payload_too_large, and bad base64 with 422', async () => {
      const big = Buffer.alloc(1024 * 1024 + 1, 1).toString('base64');
      const tooLarge = await call('POST', '/v1/upload', alice, { filename: 'big.bin', data: big });
      expect(tooLarge.status).to.equal(413);
      expect(tooLarge.body).to.include({
        error_type: 'PayloadTooLarge',
        code: 'payload_too_large',
        detail: 'The file is 1048577 bytes, over the 1048576-byte upload limit (STORAGE_UPLOAD_MAX_MIB).',
      });
      const malformed = await call('POST', '/v1/upload', alice, { filename: 'a.txt', data: 'not base64!' });
      expect(malformed.status).to.equal(422);
      expect(malformed.body.error_type).to.equal('ValidationError');
    });
  });

  describe('POST /v1/upload/grant and its PUT', () => {
    it('should grant one PUT of the exact size and type, then refuse a second as S3 does (412)', async () => {
      const grant = await call('POST', '/v1/upload/grant', alice, {
        filename: 'cv.pdf',
        content_type: 'application/pdf',
        size: PDF.length,
      });
      expect(grant.status).to.equal(200);
      expect(Object.keys(grant.body)).to.deep.equal(['uri', 'url', 'headers', 'expires_at', 'max_bytes']);
      expect(grant.body.uri).to.match(UPLOAD_URI);
      expect(grant.body.headers).to.deep.equal({ 'Content-Type': 'application/pdf', 'If-None-Match': '*' });
      expect(grant.body.max_bytes).to.equal(PDF.length);
      expect(grant.body.expires_at).to.equal(new Date(Math.floor(clock / 1000) * 1000 + 900_000).toISOString());
      const path = grant.body.uri.replace('pipelex-storage://', '/v1/storage/');
      expect(grant.body.url.startsWith(`${base}${path}?X-Mthds-Expires=`)).to.equal(true);

      const first = await put(grant.body.url, grant.body.headers, PDF);
      expect(first.status).to.equal(200);
      expect(first.headers.get('etag')).to.match(/^"[0-9a-f]{32}"$/);
      const second = await put(grant.body.url, grant.body.headers, PDF);
      expect(second.status).to.equal(412);
      expect(second.headers.get('content-type')).to.equal('application/xml');
      expect(second.text).to.include('<Code>PreconditionFailed</Code>');
      const read = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${alice}` } });
      expect(read.status).to.equal(200);
      expect(Buffer.from(await read.arrayBuffer()).equals(PDF)).to.equal(true);
    });

    it('should refuse a PUT whose size, type, signature or expiry differ from the grant’s', async () => {
      const grant = await call('POST', '/v1/upload/grant', alice, {
        filename: 'cv.pdf',
        content_type: 'application/pdf',
        size: PDF.length,
      });
      const { url, headers } = grant.body;
      const shorter = await put(url, headers, PDF.subarray(1));
      expect(shorter.status).to.equal(403);
      expect(shorter.text).to.include('<Code>SignatureDoesNotMatch</Code>');
      const otherType = await put(url, { ...headers, 'Content-Type': 'text/plain' }, PDF);
      expect(otherType.status).to.equal(403);
      expect(otherType.text).to.include('<Code>SignatureDoesNotMatch</Code>');
      const tampered = await put(url.replace(/X-Mthds-Signature=[0-9a-f]/, 'X-Mthds-Signature=g'), headers, PDF);
      expect(tampered.text).to.include('<Code>SignatureDoesNotMatch</Code>');
      const unsigned = await put(url.split('?')[0], headers, PDF);
      expect(unsigned.status).to.equal(403);
      expect(unsigned.text).to.include('<Code>AccessDenied</Code><Message>The request is not signed');
      clock += 901_000;
      const expired = await put(url, headers, PDF);
      expect(expired.status).to.equal(403);
      expect(expired.text).to.include('<Code>AccessDenied</Code><Message>Request has expired.</Message>');
      const missing = await call('GET', grant.body.uri.replace('pipelex-storage://', '/v1/storage/'), alice);
      expect(missing.status).to.equal(404);
    });

    it('should refuse a grant over STORAGE_UPLOAD_MAX_MIB with 413 payload_too_large', async () => {
      const answer = await call('POST', '/v1/upload/grant', alice, { filename: 'big.pdf', size: 1024 * 1024 + 1 });
      expect(answer.status).to.equal(413);
      expect(answer.body.code).to.equal('payload_too_large');
    });
  });

  describe('POST /v1/resolve-storage-url and /bulk', () => {
    it('should link the caller’s own reference, readable without a credential until it expires', async () => {
      const uri = await grantAndPut(alice);
      const answer = await call('POST', '/v1/resolve-storage-url', alice, { uri });
      expect(answer.status).to.equal(200);
      expect(answer.body).to.deep.equal({
        url: answer.body.url,
        expires_at: new Date(Math.floor(clock / 1000) * 1000 + 3_600_000).toISOString(),
        content_type: 'application/pdf',
      });
      const link = await fetch(answer.body.url);
      expect(link.status).to.equal(200);
      expect(link.headers.get('content-type')).to.equal('application/pdf');
      expect(Buffer.from(await link.arrayBuffer()).equals(PDF)).to.equal(true);
      clock += 3_601_000;
      const late = await fetch(answer.body.url);
      expect(late.status).to.equal(403);
      expect(await late.text()).to.include('Request has expired.');
    });

    it('should answer one verdict per reference, in request order, duplicates kept', async () => {
      const uri = await grantAndPut(alice);
      const theirs = await grantAndPut(bob);
      const answer = await call('POST', '/v1/resolve-storage-url/bulk', alice, {
        uris: [uri, theirs, 'pipelex-storage://x/y', uri, uri.replace('pipelex-storage://', 'mthds-storage:')],
      });
      expect(answer.status).to.equal(200);
      const items = answer.body.items;
      expect(items.map((item: { uri: string }) => item.uri)).to.deep.equal([
        uri,
        theirs,
        'pipelex-storage://x/y',
        uri,
        uri.replace('pipelex-storage://', 'mthds-storage:'),
      ]);
      expect(items.map((item: { error: { code: string } | null }) => item.error?.code ?? null)).to.deep.equal([
        null,
        'forbidden',
        'invalid_storage_uri',
        null,
        null,
      ]);
      expect(items[1]).to.deep.include({ url: null, expires_at: null, content_type: null });
      expect(items[0]).to.deep.include({ content_type: 'application/pdf', error: null });
      const tooMany = await call('POST', '/v1/resolve-storage-url/bulk', alice, { uris: Array(101).fill(uri) });
      expect(tooMany.status).to.equal(422);
    });
  });

  describe('another owner’s reference', () => {
    it('should be refused with 403 on every path: inputs, resolve, bulk and direct GET', async () => {
      const theirs = await grantAndPut(bob);
      const resolve = await call('POST', '/v1/resolve-storage-url', alice, { uri: theirs });
      expect(resolve.status).to.equal(403);
      expect(resolve.body.code).to.equal('storage_ownership_mismatch');
      const bulk = await call('POST', '/v1/resolve-storage-url/bulk', alice, { uris: [theirs] });
      expect(bulk.body.items[0].error.code).to.equal('forbidden');
      const direct = await call('GET', theirs.replace('pipelex-storage://', '/v1/storage/'), alice);
      expect(direct.status).to.equal(403);
      expect(direct.body.code).to.equal('storage_ownership_mismatch');
      for (const content of [{ url: theirs }, { url: theirs, filename: 'cv.pdf', mime_type: 'application/pdf' }]) {
        const run = await call('POST', '/v1/execute', alice, {
          mthds_contents: [EXTRACT],
          inputs: { doc: { concept: 'native.Document', content } },
        });
        expect(run.status).to.equal(403);
        expect(run.body.code).to.equal('storage_ownership_mismatch');
      }
    });

    it('should refuse every traversal spelling as invalid_storage_uri, never reading another scope', async () => {
      await grantAndPut(bob);
      for (const uri of TRAVERSALS) {
        const resolve = await call('POST', '/v1/resolve-storage-url', alice, { uri });
        expect(resolve.status, uri).to.equal(422);
        expect(resolve.body.code, uri).to.equal('invalid_storage_uri');
        const run = await call('POST', '/v1/execute', alice, {
          mthds_contents: [EXTRACT],
          inputs: { doc: { concept: 'native.Document', content: { url: uri } } },
        });
        expect(run.status, uri).to.equal(422);
        expect(run.body.code, uri).to.equal('invalid_storage_uri');
      }
    });
  });

  describe('a reference as a Document input (direct mode)', () => {
    it('should read the upload through the object store and extract it', async () => {
      const uri = await grantAndPut(alice);
      const run = await call('POST', '/v1/execute', alice, {
        mthds_contents: [EXTRACT],
        inputs: { doc: { concept: 'native.Document', content: { url: uri, filename: 'cv.pdf' } } },
      });
      expect(run.status, run.text).to.equal(200);
      expect(
        run.body.pipe_output.working_memory.root.main_stuff.content.items.map(
          (page: { text_and_images: { text: { text: string } } }) => page.text_and_images.text.text,
        ),
      ).to.deep.equal(['Form value']);
      const gone = uri.replace(/[0-9a-f]{32}/, '0'.repeat(32));
      const missing = await call('POST', '/v1/execute', alice, {
        mthds_contents: [EXTRACT],
        inputs: { doc: { concept: 'native.Document', content: { url: gone } } },
      });
      expect(missing.status).to.equal(404);
      expect(missing.body.code).to.equal('storage_object_not_found');
    });
  });
});
