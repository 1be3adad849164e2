import { expect } from 'chai';
import { MethodFetchError } from '../../../shared/errors/index.js';
import { CommitResolutions, GitHostUnavailable } from '../../../shared/methods/index.js';

const URL_A = 'http://127.0.0.1:9/acme/a.git';
const sha = (index: number) => index.toString(16).padStart(40, '0');
const unreachable = () =>
  new MethodFetchError('Could not reach the repository', { cause: new GitHostUnavailable('refused', undefined) });

describe('CommitResolutions', () => {
  let clock: number;
  let calls: number;
  const resolutions = (tagSeconds = 300, headSeconds = 30) =>
    new CommitResolutions({ tagSeconds, headSeconds }, () => clock);
  const answer = (commit: string) => async () => {
    calls += 1;
    return commit;
  };
  const failWith = (error: Error) => async (): Promise<string> => {
    calls += 1;
    throw error;
  };

  beforeEach(() => {
    clock = 1_000_000;
    calls = 0;
  });

  it('should reuse a tag resolution until its TTL ends, then resolve again', async () => {
    const cache = resolutions();
    expect(await cache.commit(URL_A, 'v1', answer(sha(1)))).to.deep.equal({ sha: sha(1), via: 'resolved' });
    clock += 299_999;
    expect(await cache.commit(URL_A, 'v1', answer(sha(2)))).to.deep.equal({ sha: sha(1), via: 'cached' });
    clock += 1;
    expect(await cache.commit(URL_A, 'v1', answer(sha(2)))).to.deep.equal({ sha: sha(2), via: 'resolved' });
    expect(calls).to.equal(2);
  });

  it('should give HEAD its own, shorter TTL, and keep a tag named HEAD apart from it', async () => {
    const cache = resolutions(300, 30);
    await cache.commit(URL_A, null, answer(sha(1)));
    await cache.commit(URL_A, 'HEAD', answer(sha(2)));
    clock += 30_000;
    expect(await cache.commit(URL_A, null, answer(sha(3)))).to.deep.equal({ sha: sha(3), via: 'resolved' });
    expect(await cache.commit(URL_A, 'HEAD', answer(sha(4)))).to.deep.equal({ sha: sha(2), via: 'cached' });
    expect(await cache.commit('http://127.0.0.1:9/acme/b.git', null, answer(sha(5)))).to.include({ via: 'resolved' });
  });

  it('should resolve on every request with a TTL of 0', async () => {
    const cache = resolutions(0, 0);
    await cache.commit(URL_A, 'v1', answer(sha(1)));
    expect(await cache.commit(URL_A, 'v1', answer(sha(1)))).to.include({ via: 'resolved' });
    expect(calls).to.equal(2);
  });

  it('should serve an expired resolution when the host cannot be reached, and ask again next time', async () => {
    const cache = resolutions();
    await cache.commit(URL_A, 'v1', answer(sha(1)));
    clock += 300_000;
    const error = unreachable();
    expect(await cache.commit(URL_A, 'v1', failWith(error))).to.deep.equal({ sha: sha(1), via: 'stale', error });
    expect(await cache.commit(URL_A, 'v1', failWith(unreachable()))).to.include({ sha: sha(1), via: 'stale' });
    expect(await cache.commit(URL_A, 'v1', answer(sha(2)))).to.deep.equal({ sha: sha(2), via: 'resolved' });
    expect(calls).to.equal(4);
  });

  it('should rethrow when nothing was resolved before, even for an unreachable host', async () => {
    const error = unreachable();
    const failure = await resolutions()
      .commit(URL_A, 'v1', failWith(error))
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(failure).to.equal(error);
  });

  it("should take the host's final answer over an expired resolution, and forget it", async () => {
    const cache = resolutions();
    await cache.commit(URL_A, 'v1', answer(sha(1)));
    clock += 300_000;
    const gone = new MethodFetchError("'v1' in method reference 'x' does not name a git tag on the repository");
    const first = await cache.commit(URL_A, 'v1', failWith(gone)).catch((thrown: unknown) => thrown);
    expect(first).to.equal(gone);
    const second = await cache.commit(URL_A, 'v1', failWith(unreachable())).catch((thrown: unknown) => thrown);
    expect(second).to.be.instanceOf(MethodFetchError);
  });

  it('should share one resolution among concurrent requests of one reference', async () => {
    const cache = resolutions();
    let release: (commit: string) => void = () => undefined;
    const slow = () => {
      calls += 1;
      return new Promise<string>((resolve) => {
        release = resolve;
      });
    };
    const pending = Array.from({ length: 5 }, () => cache.commit(URL_A, 'v1', slow));
    release(sha(7));
    const results = await Promise.all(pending);
    expect(results.map((result) => result.sha)).to.deep.equal(Array(5).fill(sha(7)));
    expect(calls).to.equal(1);
  });

  it('should keep at most 1024 resolutions, dropping the least recently used', async () => {
    const cache = resolutions();
    for (let index = 0; index <= 1024; index += 1) await cache.commit(URL_A, `v${index}`, answer(sha(index)));
    expect(await cache.commit(URL_A, 'v1024', answer(sha(9999)))).to.include({ via: 'cached' });
    expect(await cache.commit(URL_A, 'v0', answer(sha(9999)))).to.deep.equal({ sha: sha(9999), via: 'resolved' });
  });

  it('should take a recorded commit as a fresh resolution', async () => {
    const cache = resolutions();
    await cache.commit(URL_A, 'v1', answer(sha(1)));
    clock += 200_000;
    cache.record(URL_A, 'v1', sha(2));
    clock += 200_000;
    expect(await cache.commit(URL_A, 'v1', answer(sha(3)))).to.deep.equal({ sha: sha(2), via: 'cached' });
  });
});
