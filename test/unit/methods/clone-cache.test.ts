import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { type CacheLimits, CloneCache } from '../../../shared/methods/index.js';

const HOUR = 3600 * 1000;
const sha = (index: number) => index.toString(16).padStart(40, '0');

describe('CloneCache', () => {
  let root: string;
  let clock: number;
  const cache = (limits: Partial<CacheLimits>) =>
    new CloneCache(root, { maxClones: 64, maxTotalKib: 524288, maxAgeHours: 24, ...limits }, 5000, () => clock);
  const fill = (bytes: number) => async (staging: string) => {
    mkdirSync(staging, { recursive: true });
    writeFileSync(path.join(staging, 'data.txt'), 'x'.repeat(bytes));
    return currentSha;
  };
  let currentSha = '';
  const insert = async (store: CloneCache, index: number, bytes = 10) => {
    currentSha = sha(index);
    clock += 1000;
    return store.use(currentSha, fill(bytes), async (entry) => entry);
  };
  const entries = () =>
    readdirSync(root)
      .filter((name) => /^[0-9a-f]{40}$/.test(name))
      .sort();

  beforeEach(() => {
    root = path.join(os.tmpdir(), `mthds-cache-unit-${process.pid}-${Date.now()}`);
    clock = Date.now();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('should clone on a miss and hit afterwards without producing again', async () => {
    const store = cache({});
    let produced = 0;
    const produce = async (staging: string) => {
      produced += 1;
      mkdirSync(staging);
      writeFileSync(path.join(staging, 'a.txt'), 'a');
      return sha(1);
    };
    const first = await store.use(sha(1), produce, async (entry) => entry);
    const second = await store.use(sha(1), produce, async (entry) => entry);
    expect(first).to.deep.equal({ dir: path.join(root, sha(1)), sha: sha(1), cloned: true });
    expect(second.cloned).to.equal(false);
    expect(produced).to.equal(1);
  });

  it('should store the entry under the commit actually cloned', async () => {
    const store = cache({});
    const entry = await store.use(
      sha(1),
      async (staging) => {
        mkdirSync(staging);
        return sha(2);
      },
      async (found) => found,
    );
    expect(entry.sha).to.equal(sha(2));
    expect(entries()).to.deep.equal([sha(2)]);
  });

  it('should leave nothing behind when the clone fails', async () => {
    const store = cache({});
    const failing = store.use(
      sha(1),
      async (staging) => {
        mkdirSync(staging);
        throw new Error('clone failed');
      },
      async (entry) => entry,
    );
    await failing.then(
      () => expect.fail('should throw'),
      (error: Error) => expect(error.message).to.equal('clone failed'),
    );
    expect(entries()).to.deep.equal([]);
    expect(readdirSync(path.join(root, '.staging'))).to.deep.equal([]);
  });

  it('should evict the oldest entries beyond MAX_METHOD_CACHE_CLONES', async () => {
    const store = cache({ maxClones: 2 });
    for (const index of [1, 2, 3]) await insert(store, index);
    expect(entries()).to.deep.equal([sha(2), sha(3)]);
  });

  it('should count a hit as a use (LRU)', async () => {
    const store = cache({ maxClones: 2 });
    await insert(store, 1);
    await insert(store, 2);
    await insert(store, 1);
    await insert(store, 3);
    expect(entries()).to.deep.equal([sha(1), sha(3)]);
  });

  it('should evict the oldest entries beyond MAX_METHOD_CACHE_TOTAL_KIB, keeping the newest', async () => {
    const store = cache({ maxTotalKib: 5 });
    await insert(store, 1, 2048);
    await insert(store, 2, 2048);
    expect(entries()).to.deep.equal([sha(1), sha(2)]);
    await insert(store, 3, 2048);
    expect(entries()).to.deep.equal([sha(2), sha(3)]);
    await insert(store, 4, 8192);
    expect(entries()).to.deep.equal([sha(4)]);
  });

  it('should evict entries idle longer than MAX_METHOD_CACHE_AGE_HOURS on the sweep, except the newest', async () => {
    const store = cache({ maxAgeHours: 1 });
    await insert(store, 1);
    await insert(store, 2);
    await insert(store, 3);
    const old = new Date(clock - 3 * HOUR);
    utimesSync(path.join(root, sha(1)), old, old);
    utimesSync(path.join(root, sha(2)), old, old);
    expect(await store.sweep()).to.deep.equal([sha(1), sha(2)]);
    expect(entries()).to.deep.equal([sha(3)]);
    clock += 5 * HOUR;
    expect(await store.sweep()).to.deep.equal([]);
    expect(entries()).to.deep.equal([sha(3)]);
  });

  it('should never evict an entry this process is reading', async () => {
    const store = cache({ maxClones: 1 });
    currentSha = sha(1);
    await store.use(sha(1), fill(10), async () => {
      await insert(store, 2);
      expect(entries()).to.deep.equal([sha(1), sha(2)]);
    });
    await insert(store, 3);
    expect(entries()).to.deep.equal([sha(3)]);
  });

  it('should remove staging directories left by a crashed process on the sweep', async () => {
    const store = cache({});
    const stale = path.join(root, '.staging', 'crashed');
    mkdirSync(stale, { recursive: true });
    const old = new Date(clock - 2 * HOUR);
    utimesSync(stale, old, old);
    await store.sweep();
    expect(existsSync(stale)).to.equal(false);
  });

  it('should make one clone for concurrent requests of one commit', async () => {
    const store = cache({});
    let produced = 0;
    // the clone stays under way until every request has been made
    let allAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      allAsked = resolve;
    });
    const produce = async (staging: string) => {
      produced += 1;
      await asked;
      mkdirSync(staging);
      return sha(7);
    };
    const requests = Array.from({ length: 20 }, () => store.use(sha(7), produce, async (entry) => entry.sha));
    allAsked();
    const results = await Promise.all(requests);
    expect(results).to.deep.equal(Array(20).fill(sha(7)));
    expect(produced).to.equal(1);
  });
});
