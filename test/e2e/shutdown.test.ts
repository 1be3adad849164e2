import { Agent, request } from 'node:http';
import { expect } from 'chai';
import { QUEUE_CONFIG_DIR } from '../helpers/config-dir.js';
import { sample } from '../helpers/corpus.js';
import { pollUntil } from '../helpers/poll.js';
import { freePort, type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

/** Grace periods given to the processes under test, in ms. */
const GRACE_MS = 1500;
/** The documented bound: grace plus the one-second close allowance. */
const DEADLINE_MS = GRACE_MS + 1000;
/** Scheduling slack on a busy test machine, in ms. */
const MARGIN_MS = 2000;

/** Open a keep-alive connection to the API and leave it open (idle) after one request. */
async function openKeepAlive(baseUrl: string): Promise<Agent> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  await new Promise<void>((resolve, reject) => {
    request(`${baseUrl}/health`, { agent }, (response) => {
      response.resume();
      response.on('end', resolve);
    })
      .on('error', reject)
      .end();
  });
  return agent;
}

/** Longest a process may take to even handle the signal on a loaded machine, in ms (a hang is what fails here). */
const SIGNAL_HANDLING_MS = 30000;

/**
 * Send SIGTERM and time the exit from the moment the process handled the signal (its `shutdown:start` log line), which
 * is where its deadline starts.
 */
async function timedStop(service: ServiceProcess): Promise<{ code: number | null; ms: number }> {
  const signalledAt = Date.now();
  const code = await service.stop('SIGTERM');
  const exitedAt = Date.now();
  expect(exitedAt - signalledAt, 'the process exits after SIGTERM').to.be.below(SIGNAL_HANDLING_MS + DEADLINE_MS);
  const start = service.logs.find((line) => String(line['msg']).startsWith('shutdown:start'));
  expect(start, 'the process logged shutdown:start').to.not.equal(undefined);
  const ms = exitedAt - Number(start!['time']);
  return { code, ms };
}

describe('shutdown on SIGTERM (spawned processes)', function () {
  this.timeout(120000);
  const started: ServiceProcess[] = [];
  const agents: Agent[] = [];
  let prefix: string;

  beforeEach(() => {
    prefix = uniquePrefix();
  });

  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.destroy();
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
    await deletePrefix(prefix).catch(() => undefined);
  });

  const grace = { SHUTDOWN_GRACE_MS: String(GRACE_MS), WORKER_SHUTDOWN_GRACE_MS: String(GRACE_MS) };

  async function api(redisUrl: string, mode: 'direct' | 'bullmq'): Promise<ServiceProcess> {
    const { api: service, baseUrl } = await spawnApi(
      {
        ...grace,
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: prefix,
        ...(mode === 'bullmq' ? { SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR } : {}),
      },
      { inProcessWorker: mode === 'bullmq' },
    );
    started.push(service);
    agents.push(await openKeepAlive(baseUrl));
    return service;
  }

  async function worker(redisUrl: string): Promise<ServiceProcess> {
    const service = spawnService('worker', { ...grace, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix });
    started.push(service);
    await service.waitForLog((line) => line['msg'] === 'worker started', 60000);
    return service;
  }

  for (const redis of ['up', 'unreachable'] as const) {
    describe(`when Redis is ${redis}`, () => {
      const redisUrl = async () => (redis === 'up' ? TEST_REDIS_URL : `redis://127.0.0.1:${await freePort()}`);

      it('should exit the direct-mode API with an open keep-alive connection within the deadline', async () => {
        const { code, ms } = await timedStop(await api(await redisUrl(), 'direct'));
        expect(ms).to.be.below(DEADLINE_MS + MARGIN_MS);
        expect(code).to.equal(0);
      });

      it('should exit the bullmq-mode API with its in-process workers and an open keep-alive connection within the deadline', async () => {
        const { code, ms } = await timedStop(await api(await redisUrl(), 'bullmq'));
        expect(ms).to.be.below(DEADLINE_MS + MARGIN_MS);
        expect(code).to.equal(0);
      });

      it('should exit a worker within the deadline', async () => {
        const { code, ms } = await timedStop(await worker(await redisUrl()));
        expect(ms).to.be.below(DEADLINE_MS + MARGIN_MS);
        expect(code).to.equal(0);
      });
    });
  }

  describe('when a request is in progress', () => {
    async function slowExecute(graceMs: number): Promise<{ service: ServiceProcess; pending: Promise<unknown> }> {
      const { api: service, baseUrl } = await spawnApi({
        SHUTDOWN_GRACE_MS: String(graceMs),
        MOCK_INFERENCE_LATENCY_MS: '60000',
        QUEUE_PREFIX: prefix,
      });
      started.push(service);
      const body = { mthds_contents: [sample('hello_greeting')], inputs: { name: 'Dee' } };
      const pending = fetch(`${baseUrl}/v1/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).catch((error: unknown) => error);
      await pollUntil(
        async () => (await fetch(`${baseUrl}/metrics`)).text(),
        (text) => /mthds_runs_started_total\{[^}]*mode="direct"[^}]*\} 1/.test(text),
        30000,
        100,
      );
      return { service, pending };
    }

    it('should close its connection when the grace period is over and exit within the deadline', async () => {
      const { service, pending } = await slowExecute(GRACE_MS);
      const { code, ms } = await timedStop(service);
      expect(ms).to.be.below(DEADLINE_MS + MARGIN_MS);
      expect(code).to.equal(0);
      expect(await pending).to.be.instanceOf(Error);
    });

    it('should exit at once with status 1 on a second signal', async () => {
      const { service } = await slowExecute(60000);
      service.child.kill('SIGTERM');
      await service.waitForLog((line) => String(line['msg']).startsWith('shutdown:start'));
      const startedAt = Date.now();
      expect(await service.stop('SIGTERM')).to.equal(1);
      expect(Date.now() - startedAt).to.be.below(MARGIN_MS);
    });
  });
});
