/**
 * The retention sweep of run storage (docs/storage.md#retention), on both backends: an object older than its leaf's
 * retention is deleted, a younger one or one of a leaf kept forever (0) stays. The sweep is asked at a later time
 * instead of ageing the objects, so the same test runs against the filesystem and against s3rver.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { sweepStorage } from '../../shared/orchestration/index.js';
import { FsObjectStore, type ObjectKey, type ObjectStore } from '../../shared/storage/index.js';
import { S3ObjectStore } from '../../shared/storage/s3-object-store.js';
import { startS3Server } from '../helpers/s3-server.js';

const HOUR_MS = 3_600_000;
const RETENTION = { assets: 24, generated: 0, results: 72, payloads: 2, submissions: 0, uploads: 24 };
const KEYS: ObjectKey[] = [
  { scope: 'acme', leaf: 'assets', name: 'in.pdf' },
  { scope: 'acme/prod', leaf: 'generated', name: 'out.png' },
  { scope: 'bob', leaf: 'results', name: 'run-1.json' },
  { scope: 'bob', leaf: 'payloads', name: 'run-1.json' },
];

async function remaining(store: ObjectStore): Promise<string[]> {
  const names: string[] = [];
  for await (const { key } of store.list()) names.push(`${key.scope}/${key.leaf}/${key.name}`);
  return names.sort();
}

async function sweepContract(store: ObjectStore): Promise<void> {
  for (const key of KEYS) await store.put(key, new TextEncoder().encode('x'), 'application/octet-stream');
  const now = Date.now();
  expect(await sweepStorage(store, RETENTION, now + HOUR_MS)).to.deep.equal({ seen: 4, deleted: 0 });
  expect(await sweepStorage(store, RETENTION, now + 3 * HOUR_MS)).to.deep.equal({ seen: 4, deleted: 1 });
  expect(await remaining(store)).to.deep.equal([
    'acme/assets/in.pdf',
    'acme/prod/generated/out.png',
    'bob/results/run-1.json',
  ]);
  expect(await sweepStorage(store, RETENTION, now + 100 * HOUR_MS)).to.deep.equal({ seen: 3, deleted: 2 });
  expect(await remaining(store)).to.deep.equal(['acme/prod/generated/out.png']);
}

describe('storage retention sweep', function () {
  this.timeout(30000);

  it('deletes each leaf’s objects past its retention: filesystem', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mthds-sweep-'));
    try {
      await sweepContract(new FsObjectStore(root));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('deletes each leaf’s objects past its retention: S3 (s3rver)', async () => {
    const server = await startS3Server();
    const store = new S3ObjectStore({
      bucket: server.bucket,
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
    });
    try {
      await sweepContract(store);
    } finally {
      store.close();
      await server.close();
    }
  });
});
