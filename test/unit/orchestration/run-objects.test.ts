/**
 * Run objects in storage (docs/storage.md): which `data:` URLs move and where, the references that stand for them and
 * how they come back, offloaded job payloads — and that a reference to another scope is never read or resolved.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { StorageObjectNotFoundError } from '../../../shared/errors/index.js';
import { inputNamesOf, RunObjects, type RunRecord, refsIn, replaceRefs } from '../../../shared/orchestration/index.js';
import type { RunJob } from '../../../shared/orchestration/queued.js';
import { FsObjectStore } from '../../../shared/storage/index.js';
import type { RunResult } from '../../../shared/wire/index.js';

const LIMITS = { inlineMediaMaxBytes: 256, payloadOffloadBytes: 4096 };
const png = (size: number, fill = 1) => `data:image/png;base64,${Buffer.alloc(size, fill).toString('base64')}`;

function job(inputs: unknown): RunJob {
  return {
    pipeline_run_id: 'run-1',
    request_id: 'req-1',
    owner: 'alice',
    sources: [{ content: 'domain = "d"', source: null }],
    pipe_code: null,
    inputs,
    output_name: null,
    output_multiplicity: null,
    dynamic_output_concept_ref: null,
    storage_scope: 'alice/x',
    callback_urls: [],
    method_provenance: null,
    created_at: 0,
  };
}

function finished(root: Record<string, unknown>, extra: Record<string, unknown> = {}): RunRecord {
  return {
    pipeline_run_id: 'run-1',
    workflow_id: null,
    state: 'COMPLETED',
    pipe_code: null,
    owner: 'alice',
    storage_scope: 'alice/x',
    request_id: 'req-1',
    created_at: '2026-11-24T10:00:00.000Z',
    started_at: null,
    finished_at: null,
    result: { pipe_output: { working_memory: { root, aliases: {} } }, ...extra } as unknown as RunResult,
  };
}

describe('run objects', () => {
  let dir: string;
  let store: FsObjectStore;
  let objects: RunObjects;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mthds-run-objects-'));
    store = new FsObjectStore(dir);
    objects = new RunObjects(store, LIMITS);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function paths(): Promise<string[]> {
    const all: string[] = [];
    for await (const { key } of store.list()) all.push(`${key.scope}/${key.leaf}/${key.name}`);
    return all.sort();
  }

  it('names the inputs of both input forms', () => {
    expect([...inputNamesOf({ a: 1, b: 'x' })]).to.deep.equal(['a', 'b']);
    expect([...inputNamesOf({ root: { photo: {} }, aliases: {} })]).to.deep.equal(['photo']);
    expect([...inputNamesOf(null)]).to.deep.equal([]);
    expect([...inputNamesOf(['a'])]).to.deep.equal([]);
  });

  it('moves large data URLs of a result, whole or embedded, inputs to assets/ and the rest to generated/', async () => {
    const photo = png(3000, 1);
    const drawing = png(3000, 2);
    const small = png(10, 3);
    const record = finished(
      {
        photo: { content: { url: photo } },
        drawing: { content: { url: drawing } },
        icon: { content: { url: small } },
      },
      {
        graph_spec: {
          preview: `{"url": "${photo.slice(0, 150)}…`,
          data_html: `&quot;url&quot;: &quot;${drawing}&quot;`,
        },
      },
    );
    const stored = await objects.saveFinished(record, new Set(['photo']));
    await objects.flush();
    const text = JSON.stringify(stored);
    expect(text).to.not.include(photo);
    expect(text).to.not.include(drawing);
    expect(text).to.include(small);
    expect(text).to.include(photo.slice(0, 150));
    const kept = await paths();
    expect(kept.filter((path) => path.startsWith('alice/x/assets/'))).to.have.length(1);
    expect(kept.filter((path) => path.startsWith('alice/x/generated/'))).to.have.length(1);
    expect(kept).to.include('alice/x/results/run-1.json');
    expect(await objects.readFinished('alice/x', 'run-1')).to.deep.equal(stored);
    expect(await objects.readFinished('alice', 'run-1')).to.equal(undefined);
    const refs = refsIn(stored, 'alice/x');
    expect(refs.size).to.equal(2);
    const html = (stored.result as unknown as { graph_spec: { data_html: string } }).graph_spec.data_html;
    expect(html).to.match(/^&quot;url&quot;: &quot;mthds-storage:alice\/x\/generated\/[0-9a-f]{64}\.png&quot;$/);
  });

  it('writes the result behind the answer: readable at once, on disk after flush, a failed write reported', async () => {
    const record = finished({ note: { content: { text: 'hi' } } });
    const stored = await objects.saveFinished(record, new Set());
    expect(await objects.readFinished('alice/x', 'run-1')).to.equal(stored);
    await objects.flush();
    expect(await paths()).to.deep.equal(['alice/x/results/run-1.json']);
    expect(await new RunObjects(store, LIMITS).readFinished('alice/x', 'run-1')).to.deep.equal(stored);

    const failures: [string, string][] = [];
    const failing = new RunObjects(
      {
        backend: 'fs',
        put: () => Promise.reject(new Error('disk full')),
        create: () => Promise.reject(new Error('disk full')),
        get: (key) => store.get(key),
        delete: (key) => store.delete(key),
        list: () => store.list(),
        signedUrl: () => Promise.resolve(undefined),
        signedPut: () => Promise.resolve(undefined),
        close: () => undefined,
      },
      { ...LIMITS, onResultWriteError: (error, runId) => failures.push([(error as Error).message, runId]) },
    );
    await failing.saveFinished({ ...record, pipeline_run_id: 'run-2' }, new Set());
    await failing.flush();
    expect(failures).to.deep.equal([['disk full', 'run-2']]);
    expect(await failing.readFinished('alice/x', 'run-2')).to.equal(undefined);
  });

  it('offloads a job: large inputs to assets/, a payload still too large to payloads/, and loads it back whole', async () => {
    const photo = png(3000);
    const small = await objects.offloadJob(job({ photo: { concept: 'Image', content: { url: photo } } }));
    expect(small.written).to.deep.equal([]);
    expect(JSON.stringify(small.queued)).to.not.include(photo);
    expect(await objects.loadJob(small.queued)).to.deep.equal(
      job({ photo: { concept: 'Image', content: { url: photo } } }),
    );

    const long = 'x'.repeat(10_000);
    const big = await objects.offloadJob(job({ text: long }));
    expect(big.queued).to.deep.equal({
      pipeline_run_id: 'run-1',
      request_id: 'req-1',
      owner: 'alice',
      storage_scope: 'alice/x',
      pipe_code: null,
      callback_urls: [],
      created_at: 0,
      payload_object: 'run-1.json',
    });
    expect(big.written).to.deep.equal([{ scope: 'alice/x', leaf: 'payloads', name: 'run-1.json' }]);
    expect((await objects.loadJob(big.queued)).inputs).to.deep.equal({ text: long });
    await objects.dropPayload(big.queued);
    const gone = await objects.loadJob(big.queued).catch((error: unknown) => error);
    expect(gone).to.be.instanceOf(StorageObjectNotFoundError);
  });

  it('writes a bundle’s library files to assets/ once per content, and reads them back for the worker', async () => {
    const files = { 'docs/cv.txt': Buffer.from('Grace Hopper').toString('base64'), 'data/raw': 'AAEC' };
    const whole: RunJob = { ...job({}), library_files: files };
    const { queued } = await objects.offloadJob(whole);
    expect(queued).to.not.have.property('library_files');
    const names = (queued as RunJob).library_file_objects!;
    expect(names['docs/cv.txt']).to.match(/^[0-9a-f]{64}\.txt$/);
    expect(names['data/raw']).to.match(/^[0-9a-f]{64}$/);
    expect((await store.get({ scope: 'alice/x', leaf: 'assets', name: names['docs/cv.txt']! }))?.contentType).to.equal(
      'text/plain',
    );
    expect(await objects.loadJob(queued)).to.deep.equal(whole);
    await store.delete({ scope: 'alice/x', leaf: 'assets', name: names['data/raw']! });
    expect(await objects.loadJob(queued).catch((error: unknown) => error)).to.be.instanceOf(StorageObjectNotFoundError);
  });

  it('never reads or resolves a reference to another scope, nor one whose object is gone', async () => {
    await store.put({ scope: 'bob', leaf: 'assets', name: 'secret.png' }, new Uint8Array([1, 2, 3]), 'image/png');
    const foreign = 'mthds-storage:bob/assets/secret.png';
    const missing = 'mthds-storage:alice/x/assets/missing.png';
    const loaded = await objects.loadJob(job({ a: foreign, b: missing, c: `see ${foreign}` }));
    expect(loaded.inputs).to.deep.equal({ a: foreign, b: missing, c: `see ${foreign}` });
    expect([...refsIn({ a: foreign, b: 'mthds-storage:../x/assets/a.png' }, 'alice/x').keys()]).to.deep.equal([]);
    expect(replaceRefs({ a: missing }, new Map([[missing, 'https://x']]))).to.deep.equal({ a: 'https://x' });
  });
});
