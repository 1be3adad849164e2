/**
 * One contract for both object store backends (docs/storage.md): the filesystem store in a temporary directory and the
 * S3 store against s3rver, a real S3-protocol server on 127.0.0.1 started here. Then what only each backend has: the
 * filesystem's atomic writes and confinement to its root, and S3's presigned URLs.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { StoragePathError, StorageUnavailableError } from '../../shared/errors/index.js';
import { FsObjectStore, type ObjectInfo, type ObjectKey, type ObjectStore } from '../../shared/storage/index.js';
import { S3ObjectStore } from '../../shared/storage/s3-object-store.js';
import { problemFor } from '../helpers/problem.js';
import { startS3Server } from '../helpers/s3-server.js';
import { EVIL_NAMES, EVIL_SCOPES } from '../helpers/storage-paths.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (body: Uint8Array) => new TextDecoder().decode(body);

/** An outage as the caller sees it: a 503 problem, with the error marked retryable. */
function expectUnavailable(error: unknown): void {
  expect(error).to.be.instanceOf(StorageUnavailableError);
  expect((error as StorageUnavailableError).retryable).to.equal(true);
  expect(problemFor(error)).to.include({ status: 503, error_type: 'StorageUnavailableError', retryable: true });
}

async function listAll(store: ObjectStore): Promise<ObjectInfo[]> {
  const all: ObjectInfo[] = [];
  for await (const info of store.list()) all.push(info);
  return all.sort((a, b) => a.key.name.localeCompare(b.key.name));
}

interface Backend {
  name: string;
  open(): Promise<{ store: ObjectStore; close(): Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    name: 'fs',
    async open() {
      const root = mkdtempSync(join(tmpdir(), 'mthds-store-contract-'));
      return { store: new FsObjectStore(root), close: async () => rmSync(root, { recursive: true, force: true }) };
    },
  },
  {
    name: 's3 (s3rver)',
    async open() {
      const server = await startS3Server();
      const store = new S3ObjectStore({
        bucket: server.bucket,
        endpoint: server.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
      });
      return {
        store,
        async close() {
          store.close();
          await server.close();
        },
      };
    },
  },
];

for (const backend of BACKENDS) {
  describe(`object store contract: ${backend.name}`, () => {
    let store: ObjectStore;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ store, close } = await backend.open());
    });
    afterEach(() => close());

    const key: ObjectKey = { scope: 'acme/prod', leaf: 'results', name: 'run-1.json' };

    it('reads back what it wrote, with its content type', async () => {
      await store.put(key, bytes('{"ok":true}'), 'application/json');
      const read = await store.get(key);
      expect(read && text(read.body)).to.equal('{"ok":true}');
      expect(read?.contentType).to.equal('application/json');
    });

    it('answers undefined for an object that is not there', async () => {
      expect(await store.get(key)).to.equal(undefined);
      expect(await store.get({ ...key, scope: 'other' })).to.equal(undefined);
    });

    it('replaces an object whole on a second write', async () => {
      await store.put(key, bytes('first, and longer than the second'), 'application/json');
      await store.put(key, bytes('second'), 'application/json');
      expect(text((await store.get(key))!.body)).to.equal('second');
    });

    it('keeps scopes apart: the same leaf and name under two scopes are two objects', async () => {
      await store.put(key, bytes('acme'), 'application/json');
      await store.put({ ...key, scope: 'acme' }, bytes('parent'), 'application/json');
      expect(text((await store.get(key))!.body)).to.equal('acme');
      expect(text((await store.get({ ...key, scope: 'acme' }))!.body)).to.equal('parent');
    });

    it('deletes an object, and deleting a missing one is no error', async () => {
      await store.put(key, bytes('x'), 'application/json');
      await store.delete(key);
      expect(await store.get(key)).to.equal(undefined);
      await store.delete(key);
    });

    it('lists every object with its key, size and write time', async () => {
      const before = Date.now() - 5000;
      await store.put(key, bytes('12345'), 'application/json');
      await store.put({ scope: 'bob', leaf: 'generated', name: 'img.png' }, bytes('png'), 'image/png');
      const listed = await listAll(store);
      expect(listed.map((info) => info.key)).to.deep.equal([{ scope: 'bob', leaf: 'generated', name: 'img.png' }, key]);
      expect(listed.map((info) => info.size)).to.deep.equal([3, 5]);
      for (const info of listed) expect(info.modifiedAt).to.be.within(before, Date.now() + 5000);
    });

    it('refuses every scope and object name that could leave its prefix, and writes nothing', async () => {
      for (const scope of EVIL_SCOPES) {
        const evil = { scope, leaf: 'assets' as const, name: 'a.bin' };
        for (const attempt of [
          () => store.put(evil, bytes('x'), 'application/octet-stream'),
          () => store.get(evil),
          () => store.delete(evil),
        ]) {
          const error = await attempt().then(
            () => undefined,
            (thrown: unknown) => thrown,
          );
          expect(error, JSON.stringify(scope)).to.be.instanceOf(StoragePathError);
        }
      }
      for (const name of EVIL_NAMES) {
        const error = await store.put({ scope: 'acme', leaf: 'assets', name }, bytes('x'), 'text/plain').then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error, JSON.stringify(name)).to.be.instanceOf(StoragePathError);
      }
      expect(await listAll(store)).to.deep.equal([]);
    });
  });
}

describe('object store: filesystem only', () => {
  let parent: string;
  let root: string;
  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'mthds-store-fs-'));
    root = join(parent, 'root');
  });
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  it('writes atomically: concurrent writes leave one whole body and no temporary file', async () => {
    const store = new FsObjectStore(root);
    const key: ObjectKey = { scope: 'acme', leaf: 'payloads', name: 'job.json' };
    const bodies = Array.from({ length: 20 }, (_, index) => String(index).repeat(100_000));
    await Promise.all(bodies.map((body) => store.put(key, bytes(body), 'application/json')));
    expect(bodies).to.include(text((await store.get(key))!.body));
    expect(readdirSync(join(root, 'acme', 'payloads'))).to.deep.equal(['job.json']);
  });

  it('lists only run objects: foreign files under the root are skipped', async () => {
    const store = new FsObjectStore(root);
    await store.put({ scope: 'acme', leaf: 'assets', name: 'a.pdf' }, bytes('%PDF'), 'application/pdf');
    await mkdir(join(root, 'acme', 'notes'), { recursive: true });
    writeFileSync(join(root, 'acme', 'notes', 'readme.txt'), 'not mine');
    writeFileSync(join(root, 'acme', 'assets', '.tmp-half-written'), 'x');
    expect((await listAll(store)).map((info) => info.key.name)).to.deep.equal(['a.pdf']);
    expect((await store.get({ scope: 'acme', leaf: 'assets', name: 'a.pdf' }))?.contentType).to.equal(
      'application/pdf',
    );
  });

  it('has no signed URLs (the API serves its objects on an authenticated route, and signs its own links)', async () => {
    expect(await new FsObjectStore(root).signedUrl()).to.equal(undefined);
    expect(await new FsObjectStore(root).signedPut()).to.equal(undefined);
  });

  it('creates an object once: of racing creates exactly one wins, and a later one is refused', async () => {
    const store = new FsObjectStore(root);
    const key: ObjectKey = { scope: 'acme', leaf: 'uploads', name: 'cv.pdf' };
    const bodies = Array.from({ length: 10 }, (_, index) => `%PDF-${index}`);
    const created = await Promise.all(bodies.map((body) => store.create(key, bytes(body), 'application/pdf')));
    expect(created.filter(Boolean)).to.have.length(1);
    expect(text((await store.get(key))!.body)).to.equal(bodies[created.indexOf(true)]);
    expect(await store.create(key, bytes('later'), 'application/pdf')).to.equal(false);
    expect(readdirSync(join(root, 'acme', 'uploads'))).to.deep.equal(['cv.pdf']);
  });

  it('reports a root it cannot write as StorageUnavailableError (503, retryable)', async () => {
    writeFileSync(root, 'a file where the root directory should be');
    const error = await new FsObjectStore(root)
      .put({ scope: 'acme', leaf: 'assets', name: 'a.bin' }, bytes('x'), 'application/octet-stream')
      .catch((thrown: unknown) => thrown);
    expectUnavailable(error);
  });
});

describe('object store: S3 only', () => {
  it('hands out presigned URLs that fetch the object without credentials, until they expire', async () => {
    const server = await startS3Server();
    let clockSetBackMs = 0;
    const store = new S3ObjectStore({
      bucket: server.bucket,
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      now: () => Date.now() - clockSetBackMs,
    });
    try {
      const key: ObjectKey = { scope: 'acme/prod', leaf: 'generated', name: 'img-1.png' };
      await store.put(key, bytes('not really a png'), 'image/png');
      const url = await store.signedUrl(key, 60);
      expect(url.startsWith(`${server.endpoint}/${server.bucket}/acme/prod/generated/img-1.png?`)).to.equal(true);
      const answer = await fetch(url);
      expect(answer.status).to.equal(200);
      expect(answer.headers.get('content-type')).to.equal('image/png');
      expect(await answer.text()).to.equal('not really a png');
      clockSetBackMs = 61_000;
      const expired = await store.signedUrl(key, 60);
      const refused = await fetch(expired);
      expect(refused.status).to.equal(403);
      expect(await refused.text()).to.include('Request has expired');
      clockSetBackMs = 50_000;
      expect((await fetch(await store.signedUrl(key, 60))).status, 'signed 50 s ago for 60 s').to.equal(200);
    } finally {
      store.close();
      await server.close();
    }
  });

  it('presigns a create-only PUT of an exact size and media type, whose bytes it then reads', async () => {
    const server = await startS3Server();
    const store = new S3ObjectStore({
      bucket: server.bucket,
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
    });
    try {
      const key: ObjectKey = { scope: 'acme', leaf: 'uploads', name: 'cv.pdf' };
      const grant = { size: 8, contentType: 'application/pdf', expiresInSeconds: 60 };
      const { url, headers } = await store.signedPut(key, grant);
      expect(headers).to.deep.equal({ 'Content-Type': 'application/pdf', 'If-None-Match': '*' });
      const query = new URL(url).searchParams;
      expect(query.get('X-Amz-SignedHeaders')).to.equal('content-length;content-type;host;if-none-match');
      expect(query.get('X-Amz-Expires')).to.equal('60');
      expect([...query.keys()].some((name) => name.startsWith('x-amz-checksum'))).to.equal(false);
      expect((await fetch(url, { method: 'PUT', headers, body: bytes('%PDF-1.4') })).status).to.equal(200);
      expect(text((await store.get(key))!.body)).to.equal('%PDF-1.4');
      expect(await store.create({ ...key, name: 'other.pdf' }, bytes('%PDF'), 'application/pdf')).to.equal(true);
    } finally {
      store.close();
      await server.close();
    }
  });

  it('reports an unreachable bucket as StorageUnavailableError (503, retryable)', async () => {
    const store = new S3ObjectStore({
      bucket: 'missing',
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      forcePathStyle: true,
    });
    try {
      const error = await store
        .get({ scope: 'acme', leaf: 'results', name: 'r.json' })
        .catch((thrown: unknown) => thrown);
      expectUnavailable(error);
    } finally {
      store.close();
    }
  });
});
