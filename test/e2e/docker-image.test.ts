import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { REPO_ROOT } from '../helpers/deploy-files.js';
import { pollUntil } from '../helpers/poll.js';

/** Runs `docker` with these arguments from the repository root; its status and output. */
function docker(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('docker', args, { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** Where a container runtime answers: the image is built from deploy/Dockerfile and run. Skipped elsewhere. */
describe('the deploy/Dockerfile image (docker build and run)', function () {
  this.timeout(20 * 60 * 1000);
  const tag = `mthds-runner:test-${process.pid}`;
  const container = `mthds-runner-test-${process.pid}`;
  let built = false;

  before(function () {
    const info = docker('info', '--format', '{{.ServerVersion}}');
    if (info.status !== 0) {
      process.stderr.write('\n  No Docker daemon answers (docker info failed): skipping the image build and run.\n\n');
      this.skip();
    }
    const build = docker('build', '-f', 'deploy/Dockerfile', '-t', tag, '.');
    expect(build.status, build.stderr).to.equal(0);
    built = true;
  });

  after(() => {
    docker('rm', '-f', container);
    if (built) docker('rmi', '-f', tag);
  });

  it('should serve /health and /ready as the non-root user, with git on the PATH', async () => {
    const run = docker('run', '-d', '--name', container, '-p', '127.0.0.1::8081', tag);
    expect(run.status, run.stderr).to.equal(0);
    const port = docker('port', container, '8081/tcp').stdout.trim().split(':').at(-1);
    const base = `http://127.0.0.1:${port}`;
    const ready = await pollUntil(
      () =>
        fetch(`${base}/ready`).then(
          (response) => response.status,
          () => 0,
        ),
      (status) => status === 200,
      120000,
      500,
    );
    expect(ready).to.equal(200);
    expect((await fetch(`${base}/health`)).status).to.equal(200);
    expect(docker('exec', container, 'git', '--version').stdout).to.match(/^git version /);
    expect(docker('exec', container, 'id', '-u').stdout.trim()).to.not.equal('0');
  });
});
