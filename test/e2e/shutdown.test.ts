import { Agent, request } from 'node:http';
import { expect } from 'chai';
import { QUEUE_CONFIG_DIR } from '../helpers/config-dir.js';
import { sample } from '../helpers/corpus.js';
import { pollUntil } from '../helpers/poll.js';
import { freePort, type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, uniquePrefix } from '../helpers/redis.js';

/** Grace periods given to the processes under test, in ms. */
const GRACE_MS = 1500;
/** The documented bound: grace plus the one-second close allowance. */
const DEADLINE_MS = GRACE_MS + 1000;

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

/** How a process ended after SIGTERM, from its exit status and its own log. */
interface Stopped {
  /** Its exit status. */
  code: number | null;
  /** The deadline it set itself (`deadline_ms` of its `shutdown:start` line). */
  deadlineMs: unknown;
  /** The status it chose once its resources were released (`exit_code` of its `shutdown:done` line). */
  doneCode: unknown;
}

const logged = (prefix: string) => (line: Record<string, unknown>) => String(line['msg']).startsWith(prefix);

/**
 * Send SIGTERM and read how the process ended. A process that runs out of its deadline exits with status 1 before it
 * logs `shutdown:done`, so a `shutdown:done` with status 0 and an exit status 0 mean every resource was released
 * within the deadline; the deadline itself is timed on a fake clock in test/unit/lifecycle/shutdown.test.ts.
 */
async function stopAndRead(service: ServiceProcess): Promise<Stopped> {
  const code = await service.stop('SIGTERM');
  const start = await service.waitForLog(logged('shutdown:start'));
  const done = code === 0 ? await service.waitForLog(logged('shutdown:done')) : undefined;
  return { code, deadlineMs: start['deadline_ms'], doneCode: done?.['exit_code'] };
}

/** A shutdown that released everything within its deadline of grace plus the close allowance. */
const CLEAN: Stopped = { code: 0, deadlineMs: DEADLINE_MS, doneCode: 0 };

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

  async function api(redis: Record<string, string>, mode: 'direct' | 'bullmq'): Promise<ServiceProcess> {
    const { api: service, baseUrl } = await spawnApi(
      {
        ...grace,
        ...redis,
        QUEUE_PREFIX: prefix,
        ...(mode === 'bullmq' ? { SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR } : {}),
      },
      { inProcessWorker: mode === 'bullmq' },
    );
    started.push(service);
    agents.push(await openKeepAlive(baseUrl));
    return service;
  }

  async function worker(redis: Record<string, string>): Promise<ServiceProcess> {
    const service = spawnService('worker', { ...grace, ...redis, QUEUE_PREFIX: prefix });
    started.push(service);
    await service.waitForLog((line) => line['msg'] === 'worker started', 60000);
    return service;
  }

  for (const redis of ['up', 'unreachable'] as const) {
    describe(`when Redis is ${redis}`, () => {
      const redisVariables = async () =>
        redis === 'up' ? TEST_REDIS_ENVIRONMENT : { REDIS_URL: `redis://127.0.0.1:${await freePort()}` };

      it('should exit the direct-mode API with an open keep-alive connection within the deadline', async () => {
        expect(await stopAndRead(await api(await redisVariables(), 'direct'))).to.deep.equal(CLEAN);
      });

      it('should exit the bullmq-mode API with its in-process workers and an open keep-alive connection within the deadline', async () => {
        expect(await stopAndRead(await api(await redisVariables(), 'bullmq'))).to.deep.equal(CLEAN);
      });

      it('should exit a worker within the deadline', async () => {
        expect(await stopAndRead(await worker(await redisVariables()))).to.deep.equal(CLEAN);
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
      expect(await stopAndRead(service)).to.deep.equal(CLEAN);
      expect(await pending).to.be.instanceOf(Error);
    });

    it('should exit at once with status 1 on a second signal', async () => {
      const { service } = await slowExecute(60000);
      service.child.kill('SIGTERM');
      await service.waitForLog(logged('shutdown:start'));
      expect(await service.stop('SIGTERM')).to.equal(1);
      // its grace (60 s) is not over: status 1 comes from the second signal, not from the deadline
      await service.waitForLog(logged('shutdown:forced by a second SIGTERM'));
      expect(service.logs.filter(logged('shutdown:deadline'))).to.deep.equal([]);
    });
  });
});
