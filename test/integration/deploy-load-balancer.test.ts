import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { repoFile } from '../helpers/deploy-files.js';
import { pollUntil } from '../helpers/poll.js';
import { freePort } from '../helpers/processes.js';

/** A stand-in API replica on 127.0.0.1: `/ready` answers as told, every other path names the replica. */
interface Replica {
  name: string;
  server: Server;
  ready: boolean;
  port: number;
}

async function startReplica(name: string, ready: boolean): Promise<Replica> {
  const replica = { name, ready, port: 0 } as Replica;
  replica.server = createServer((req, res) => {
    if (req.url === '/ready') return void res.writeHead(replica.ready ? 200 : 503).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ replica: name, path: req.url }));
  });
  await new Promise<void>((resolve) => replica.server.listen(0, '127.0.0.1', resolve));
  replica.port = (replica.server.address() as AddressInfo).port;
  return replica;
}

/**
 * deploy/haproxy/haproxy.cfg run by a real HAProxy, its Docker DNS server template swapped for two replicas on
 * 127.0.0.1 and its bind address for a free loopback port; everything else (checks, timeouts, monitor URI) as shipped.
 */
describe('the compose load balancer (deploy/haproxy/haproxy.cfg, real HAProxy)', function () {
  this.timeout(60000);
  let replicas: Replica[] = [];
  let haproxy: ChildProcess | undefined;
  let directory: string | undefined;
  let base = '';

  before(async function () {
    if (spawnSync('haproxy', ['-v']).status !== 0) {
      process.stderr.write('\n  haproxy is not installed: skipping the load balancer test.\n\n');
      this.skip();
    }
    replicas = [await startReplica('a', true), await startReplica('b', false)];
    const port = await freePort();
    const shipped = repoFile('deploy/haproxy/haproxy.cfg');
    expect(shipped).to.match(/^\s*server-template api- \d+ api:8081$/m);
    const config = shipped
      .replace(/^\s*bind :\d+$/m, `  bind 127.0.0.1:${port}`)
      .replace(
        /^\s*server-template .*$/m,
        replicas.map((replica) => `  server ${replica.name} 127.0.0.1:${replica.port}`).join('\n'),
      )
      .replace(/ resolvers docker init-addr none/, '');
    directory = mkdtempSync(join(tmpdir(), 'haproxy-'));
    const file = join(directory, 'haproxy.cfg');
    writeFileSync(file, config);
    const check = spawnSync('haproxy', ['-c', '-f', file], { encoding: 'utf8' });
    expect(check.status, check.stderr + check.stdout).to.equal(0);
    haproxy = spawn('haproxy', ['-db', '-f', file], { stdio: 'ignore' });
    base = `http://127.0.0.1:${port}`;
    await pollUntil(
      () =>
        fetch(`${base}/lb-health`).then(
          (response) => response.status,
          () => 0,
        ),
      (status) => status === 200,
      15000,
      100,
    );
  });

  after(async () => {
    if (haproxy && haproxy.exitCode === null) {
      const exited = new Promise((resolve) => haproxy?.once('exit', resolve));
      haproxy.kill('SIGTERM');
      await exited;
    }
    for (const replica of replicas) await new Promise((resolve) => replica.server.close(resolve));
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('should pass the shipped file through `haproxy -c`', () => {
    const check = spawnSync('haproxy', ['-c', '-f', join(process.cwd(), 'deploy/haproxy/haproxy.cfg')], {
      encoding: 'utf8',
    });
    expect(check.status, check.stderr + check.stdout).to.equal(0);
  });

  it('should send requests only to replicas whose /ready answers 200, and to every one once it does', async () => {
    const served = async (count: number) => {
      const names = new Set<string>();
      for (let index = 0; index < count; index += 1) {
        const response = await fetch(`${base}/v1/version`);
        expect(response.status).to.equal(200);
        names.add(((await response.json()) as { replica: string }).replica);
      }
      return [...names].sort();
    };
    await pollUntil(
      () => served(6),
      (names) => names.join() === 'a',
      15000,
      200,
    );
    expect(await served(10)).to.deep.equal(['a']);
    (replicas[1] as Replica).ready = true;
    await pollUntil(
      () => served(10),
      (names) => names.join() === 'a,b',
      20000,
      500,
    );
    (replicas[0] as Replica).ready = false;
    await pollUntil(
      () => served(10),
      (names) => names.join() === 'b',
      20000,
      500,
    );
  });

  it('should answer its own liveness URI without reaching a replica', async () => {
    const response = await fetch(`${base}/lb-health`);
    expect(response.status).to.equal(200);
    expect(await response.text()).to.not.include('replica');
  });
});
