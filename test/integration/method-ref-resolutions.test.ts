import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { loadSettings } from '../../shared/config/index.js';
import { MethodFetchError } from '../../shared/errors/index.js';
import { createMethodFetcher, GitHostUnavailable, type MethodFetcher } from '../../shared/methods/index.js';
import { TestRepo } from '../helpers/git-repos.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { tempDir } from '../helpers/method-repos.js';

const ADDRESS = 'github.com/acme/hello';
const HELLO = `domain = "greeting"\ndescription = "Hello"\nmain_pipe = "say_hello"\n\n[pipe.say_hello]\ntype = "PipeLLM"\ndescription = "Say hello"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Say hello to @name"\n`;
const PACKAGE = {
  'METHODS.toml': `[package]\nname = "hello"\naddress = "${ADDRESS}"\nversion = "1.0.0"\ndescription = "hello"\nmain_pipe = "say_hello"\n`,
  'hello.mthds': HELLO,
};
const SECOND = 1000;

/** A git server on 127.0.0.1 serving one package repository, `acme/hello`, tagged `v1` (and `v2` when asked). */
async function helloServer(): Promise<{ root: string; server: GitServer; repo: TestRepo; v1: string }> {
  const root = tempDir('mthds-resolve-git-');
  const server = await startGitServer(root);
  const repo = new TestRepo(root, 'acme', 'hello');
  const v1 = repo.write(PACKAGE).commit('hello', 'v1');
  return { root, server, repo, v1 };
}

describe('method_ref resolution cache: commits reused within their TTL, stale-if-error (git on 127.0.0.1)', function () {
  this.timeout(60000);
  let root: string;
  let server: GitServer;
  let repo: TestRepo;
  let v1: string;
  let cacheDir: string;
  let clock: number;
  let warnings: Record<string, unknown>[];

  /** The stale-if-error warnings logged so far (the METHOD_REF_ALLOW_PRIVATE_HOSTS one left out). */
  const staleWarnings = () => warnings.filter((line) => 'method_ref' in line);
  /** A fetcher of its own (empty resolution cache), on the test clock, its warnings collected. */
  const fetcher = (git: GitServer = server, overrides: Record<string, string> = {}): MethodFetcher => {
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
    const settings = loadSettings({
      METHOD_REF_CLONE_URL_TEMPLATE: git.template,
      METHOD_REF_ALLOW_PRIVATE_HOSTS: 'true',
      METHOD_CACHE_DIR: cacheDir,
      METHOD_GIT_TIMEOUT_MS: '10000',
      METHOD_REF_RESOLVE_TTL_SECONDS: '300',
      METHOD_REF_HEAD_RESOLVE_TTL_SECONDS: '30',
      ...overrides,
    });
    return createMethodFetcher(settings, logger, { now: () => clock }).fetcher;
  };
  const commitOf = async (methods: MethodFetcher, ref: string) =>
    (await methods.fetch(ref, 'run')).provenance.commit_sha;
  const traffic = (git: GitServer = server) => ({ contacts: git.contactCount(), fetches: git.fetchCount() });

  before(async () => {
    ({ root, server, repo, v1 } = await helloServer());
  });

  after(async () => {
    await server.close();
    repo.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  beforeEach(() => {
    cacheDir = tempDir('mthds-resolve-cache-');
    clock = Date.now();
    warnings = [];
  });

  afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('should fetch a tag a second time within its TTL without any request to the git server', async () => {
    const methods = fetcher();
    const before = traffic();
    expect(await commitOf(methods, `${ADDRESS}@v1`)).to.equal(v1);
    const afterFirst = traffic();
    expect(afterFirst.fetches - before.fetches).to.equal(1);
    clock += 299 * SECOND;
    expect(await commitOf(methods, `${ADDRESS}@v1`)).to.equal(v1);
    expect(traffic()).to.deep.equal(afterFirst);
  });

  it('should resolve the tag again once its TTL is over, and follow a tag that moved', async () => {
    const methods = fetcher();
    const first = repo.write({ 'notes.md': 'first\n' }).commit('tag moving', 'moving');
    expect(await commitOf(methods, `${ADDRESS}@moving`)).to.equal(first);
    const moved = repo.write({ 'notes.md': 'moved\n' }).commit('move the tag', 'moving');
    clock += 299 * SECOND;
    const within = traffic();
    expect(await commitOf(methods, `${ADDRESS}@moving`)).to.equal(first);
    expect(traffic()).to.deep.equal(within);
    clock += 2 * SECOND;
    expect(await commitOf(methods, `${ADDRESS}@moving`)).to.equal(moved);
    expect(traffic().contacts - within.contacts).to.be.greaterThan(0);
    expect(traffic().fetches - within.fetches).to.equal(1);
  });

  it('should give a bare address (HEAD) the shorter TTL: resolved again after 30 s while a tag is still reused', async () => {
    const methods = fetcher();
    const head = await commitOf(methods, ADDRESS);
    expect(await commitOf(methods, `${ADDRESS}@v1`)).to.equal(v1);
    const pushed = repo.write({ 'head.md': `${Date.now()}\n` }).commit('a push to main');
    clock += 29 * SECOND;
    const within = traffic();
    expect(await commitOf(methods, ADDRESS)).to.equal(head);
    expect(traffic()).to.deep.equal(within);
    clock += 2 * SECOND;
    expect(await commitOf(methods, `${ADDRESS}@v1`)).to.equal(v1);
    expect(traffic()).to.deep.equal(within);
    expect(await commitOf(methods, ADDRESS)).to.equal(pushed);
    expect(traffic().contacts - within.contacts).to.be.greaterThan(0);
  });

  it('should keep serving an expired resolution with a warning while the git host is down, and fail an unresolved address with MethodFetchError', async () => {
    const down = await helloServer();
    try {
      const methods = fetcher(down.server);
      expect(await commitOf(methods, `${ADDRESS}@v1`)).to.equal(down.v1);
      down.repo.write({ 'v2.md': 'v2\n' }).commit('v2', 'v2');
      await down.server.close();
      clock += 301 * SECOND;
      const fetched = await methods.fetch(`${ADDRESS}@v1`, 'run');
      expect(fetched.provenance.commit_sha).to.equal(down.v1);
      expect(fetched.sources.map((source) => source.source)).to.deep.equal(['hello.mthds']);
      expect(staleWarnings()).to.have.length(1);
      expect(staleWarnings()[0]).to.include({ level: 40, method_ref: `${ADDRESS}@v1`, commit_sha: down.v1 });
      expect(String(staleWarnings()[0]!['msg'])).to.include('stale-if-error');
      const failure = await methods.fetch(`${ADDRESS}@v2`, 'run').catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(MethodFetchError);
      expect((failure as MethodFetchError).error_type).to.equal('MethodFetchError');
      expect((failure as Error).message).to.match(
        /^Could not reach the repository of method reference 'github\.com\/acme\/hello@v2': git ls-remote /,
      );
      expect((failure as Error).cause).to.be.instanceOf(GitHostUnavailable);
      expect(staleWarnings()).to.have.length(1);
    } finally {
      down.repo.dispose();
      rmSync(down.root, { recursive: true, force: true });
    }
  });

  it("should not stand in for the host's answer: an expired resolution of a deleted tag fails with the existing error", async () => {
    const methods = fetcher();
    repo.write({ 'doomed.md': 'doomed\n' }).commit('doomed', 'doomed');
    await commitOf(methods, `${ADDRESS}@doomed`);
    execFileSync('git', ['tag', '--delete', 'doomed'], { cwd: repo.bareDir, stdio: 'ignore' });
    clock += 301 * SECOND;
    const failure = await methods.fetch(`${ADDRESS}@doomed`, 'run').catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(MethodFetchError);
    expect((failure as Error).message).to.include("'doomed' in method reference");
    expect(staleWarnings()).to.deep.equal([]);
  });

  it('should tell an unknown repository on a live host (final) from a host that does not answer', async () => {
    const failure = await fetcher()
      .fetch('github.com/acme/missing@v1', 'run')
      .catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(MethodFetchError);
    expect((failure as Error).message).to.include('not found');
    expect((failure as Error).cause).to.not.be.instanceOf(GitHostUnavailable);
  });

  describe('located packages kept in memory (METHOD_PACKAGE_MEMORY_KIB)', () => {
    /** Replace the cached clone's bundle text on disk, behind the cache's back. */
    const rewriteCachedBundle = (commit: string) =>
      writeFileSync(join(cacheDir, commit, 'hello.mthds'), HELLO.replace('Say hello to', 'Whisper to'));
    const prompt = async (methods: MethodFetcher) =>
      (await methods.fetch(`${ADDRESS}@v1`, 'run')).sources.map((source) => source.content).join('');

    it('should serve a hit from memory: nothing of the clone entry is read again', async () => {
      const methods = fetcher();
      expect(await prompt(methods)).to.include('Say hello to');
      rewriteCachedBundle(v1);
      expect(await prompt(methods)).to.include('Say hello to');
      expect(await prompt(fetcher())).to.include('Whisper to');
    });

    it('should read the entry on every hit with METHOD_PACKAGE_MEMORY_KIB=0', async () => {
      const methods = fetcher(server, { METHOD_PACKAGE_MEMORY_KIB: '0' });
      expect(await prompt(methods)).to.include('Say hello to');
      rewriteCachedBundle(v1);
      expect(await prompt(methods)).to.include('Whisper to');
    });

    it('should keep a package apart per purpose and never keep a refusal', async () => {
      const methods = fetcher(server, { SERVICE_MAX_FETCHED_PACKAGE_TOTAL_KIB: '1' });
      await methods.fetch(`${ADDRESS}@v1`, 'run');
      writeFileSync(join(cacheDir, v1, 'padding.mthds'), `# ${'x'.repeat(2048)}\n`);
      const refusal = () =>
        methods.fetch(`${ADDRESS}@v1`, 'tooling').then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(await refusal()).to.have.property('name', 'MethodPackageTooLargeError');
      expect(await refusal()).to.have.property('name', 'MethodPackageTooLargeError');
      expect(await prompt(methods)).to.include('Say hello to');
    });
  });
});
