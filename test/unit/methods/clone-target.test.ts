import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { MethodFetchError } from '../../../shared/errors/index.js';
import { checkCloneHost, curlResolveEntry, normalisedCloneUrl } from '../../../shared/methods/clone-target.js';
import { resolveCommit } from '../../../shared/methods/git-remote.js';
import { TestRepo } from '../../helpers/git-repos.js';
import { type GitServer, startGitServer } from '../../helpers/git-server.js';
import { tempDir } from '../../helpers/method-repos.js';

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  return expect.fail('expected a refusal');
}

describe('clone target: SSRF check and DNS pinning of the clone host', () => {
  describe('checkCloneHost', () => {
    it('should pin a public host to the address it resolved to, with the scheme default port', async () => {
      const lookup = async () => [{ address: '140.82.121.4' }, { address: '140.82.121.3' }];
      expect(await checkCloneHost('https://github.com/pipelex/methods.git', false, lookup)).to.equal(
        'github.com:443:140.82.121.4',
      );
      expect(await checkCloneHost('http://git.example.org:8080/o/r.git', false, lookup)).to.equal(
        'git.example.org:8080:140.82.121.4',
      );
    });

    it('should refuse a host that resolves to a private or loopback address, whichever answer it is', async () => {
      const error = await failure(
        checkCloneHost('https://github.com/o/r.git', false, async () => [
          { address: '140.82.121.4' },
          { address: '10.0.0.7' },
        ]),
      );
      expect(error).to.be.instanceOf(MethodFetchError);
      expect(error.message).to.equal(
        "The clone host is refused: 'github.com' resolves to 10.0.0.7, a non-public address (private, RFC 1918): only public destinations are accepted while METHOD_REF_ALLOW_PRIVATE_HOSTS is off (it is for development and tests only).",
      );
    });

    it('should refuse a host that does not resolve', async () => {
      const error = await failure(
        checkCloneHost('https://nowhere.example/o/r.git', false, async () => {
          throw new Error('getaddrinfo ENOTFOUND nowhere.example');
        }),
      );
      expect(error.message).to.equal(
        'Could not resolve the clone host nowhere.example: getaddrinfo ENOTFOUND nowhere.example.',
      );
    });

    it('should accept a loopback literal without a lookup or a pin when private hosts are allowed', async () => {
      expect(await checkCloneHost('http://127.0.0.1:9/o/r.git', true, async () => expect.fail('no lookup'))).to.equal(
        null,
      );
    });

    it('should still check and pin a name when private hosts are allowed', async () => {
      expect(
        await checkCloneHost('http://git.internal:8080/o/r.git', true, async () => [{ address: '10.0.0.7' }]),
      ).to.equal('git.internal:8080:10.0.0.7');
    });

    it('should refuse cloud metadata in every mode, as a literal, a name or a resolved address', async () => {
      for (const url of [
        'http://169.254.169.254/o/r.git',
        'http://[::ffff:a9fe:a9fe]/o/r.git',
        'http://metadata.google.internal/o/r.git',
      ]) {
        const error = await failure(checkCloneHost(url, true, async () => expect.fail('no lookup')));
        expect(error, url).to.be.instanceOf(MethodFetchError);
        expect(error.message, url).to.match(
          /^The clone URL of this method reference is refused: it targets .*cloud-metadata .*refused in every mode, whatever METHOD_REF_ALLOW_PRIVATE_HOSTS says\.$/,
        );
      }
      const resolved = await failure(
        checkCloneHost('https://git.example.org/o/r.git', true, async () => [{ address: 'fd00:ec2::254' }]),
      );
      expect(resolved.message).to.equal(
        "The clone host is refused: 'git.example.org' resolves to fd00:ec2::254, a cloud-metadata address: cloud-metadata destinations are refused in every mode, whatever METHOD_REF_ALLOW_PRIVATE_HOSTS says.",
      );
    });

    it('should refuse the numeric spellings of a loopback address (checked on the normalised URL git receives)', async () => {
      for (const host of ['2130706433', '0x7f000001', '0177.0.0.1', '127.1', '[::ffff:7f00:1]']) {
        const url = normalisedCloneUrl(`http://${host}:8080/o/r.git`);
        expect(url, host).to.match(/^http:\/\/(127\.0\.0\.1|\[::ffff:7f00:1\]):8080\/o\/r\.git$/);
        expect((await failure(checkCloneHost(url, false))).message, host).to.match(/a non-public address \(loopback\)/);
      }
    });
  });

  describe('curlResolveEntry', () => {
    it('should bracket an IPv6 address', () => {
      expect(curlResolveEntry('https://git.example.org/o/r.git', '2606:4700::1')).to.equal(
        'git.example.org:443:[2606:4700::1]',
      );
    });
  });

  describe('git pinned by http.curloptResolve', function () {
    this.timeout(30000);
    let root: string;
    let server: GitServer;
    let repo: TestRepo;
    let sha: string;

    before(async () => {
      root = tempDir('mthds-pin-');
      server = await startGitServer(root);
      repo = new TestRepo(root, 'acme', 'pinned');
      sha = repo.write({ 'README.md': 'pinned\n' }).commit('pinned', 'v1.0.0');
    });

    after(async () => {
      await server.close();
      repo.dispose();
      rmSync(root, { recursive: true, force: true });
    });

    it('should reach the pinned address for a name that has no DNS record', async () => {
      const port = new URL(server.baseUrl).port;
      const url = `http://pinned-git.invalid:${port}/acme/pinned.git`;
      const resolved = await resolveCommit(url, 'v1.0.0', 'github.com/acme/pinned@v1.0.0', {
        timeoutMs: 10000,
        resolve: `pinned-git.invalid:${port}:127.0.0.1`,
      });
      expect(resolved).to.equal(sha);
    });

    it('should connect to the pinned address only: a pin to an address where nothing listens fails (no DNS asked)', async () => {
      const port = new URL(server.baseUrl).port;
      const url = `http://pinned-git.invalid:${port}/acme/pinned.git`;
      const error = await failure(
        resolveCommit(url, 'v1.0.0', 'github.com/acme/pinned@v1.0.0', {
          timeoutMs: 10000,
          resolve: `pinned-git.invalid:${port}:127.0.0.2`,
        }),
      );
      expect(error).to.be.instanceOf(MethodFetchError);
      expect(error.message).to.match(
        /^Could not reach the repository of method reference 'github.com\/acme\/pinned@v1.0.0': git ls-remote /,
      );
    });
  });
});
