import { expect } from 'chai';
import type { RedisClient } from '../../shared/config/index.js';
import { RunCrashedError, toErrorReport } from '../../shared/errors/index.js';
import { createLogger, Metrics } from '../../shared/observability/index.js';
import { RunCheckpoints } from '../../shared/orchestration/checkpoints/index.js';
import {
  loggedRunObjects,
  memoryRuns,
  type RunRecord,
  RunRegistry,
  type RunStore,
} from '../../shared/orchestration/index.js';
import { type CallbackJob, openRedis, QueueKeys, type RunJob } from '../../shared/orchestration/queued.js';
import { recordRunFailure } from '../../shared/orchestration/workers/run-failure.js';
import { openObjectStore } from '../../shared/storage/index.js';
import { type CallbackReceiver, startCallbackReceiver } from '../helpers/callback-receiver.js';
import { QUEUE_CONFIG_DIR, testSettings } from '../helpers/config-dir.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { processTree } from '../helpers/process-tree.js';
import { type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, TEST_REDIS_TARGET, uniquePrefix } from '../helpers/redis.js';

const RUNS = 100;
const MIB = 1024 * 1024;
/** The rescuing worker's quarantine heap, in MiB: its quarantine processes stay under it plus their runtime. */
const QUARANTINE_HEAP_MIB = 128;
/**
 * What a quarantine process holds beside its heap, in MiB: docs/run-failures.md bounds it at about 110 MiB for the
 * compiled build the tests spawn; the rest is margin for a loaded machine.
 */
const RUNTIME_ALLOWANCE_MIB = 256;

async function start(baseUrl: string, runId: string, callbackUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      pipeline_run_id: runId,
      mthds_contents: [GREETING_BUNDLE],
      inputs: { name: runId },
      callback_urls: [callbackUrl],
    }),
    signal: AbortSignal.timeout(30000),
  });
  await response.arrayBuffer();
  return response.status;
}

async function statusOf(baseUrl: string, runId: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/runs/${runId}/status`, { signal: AbortSignal.timeout(10000) });
  const body = (await response.json()) as { status?: string };
  return body.status ?? `HTTP ${response.status}`;
}

/** What a worker's process tree held at most while it was sampled. */
interface TreeHigh {
  /** Quarantine processes alive at once. */
  quarantines: number;
  /** Bytes of RSS of the quarantine processes and their children, together. */
  quarantineRssBytes: number;
  /** Bytes of RSS of the worker process itself. */
  workerRssBytes: number;
}

function sampleTree(workerPid: number, high: TreeHigh): void {
  const tree = processTree(workerPid);
  const quarantinePids = new Set(
    tree.filter((entry) => entry.command.includes('quarantine-process')).map((entry) => entry.pid),
  );
  const quarantineTrees = [...quarantinePids].flatMap((pid) => processTree(pid));
  high.quarantines = Math.max(high.quarantines, quarantinePids.size);
  high.quarantineRssBytes = Math.max(
    high.quarantineRssBytes,
    quarantineTrees.reduce((sum, entry) => sum + entry.rssBytes, 0),
  );
  high.workerRssBytes = Math.max(high.workerRssBytes, tree[0]?.rssBytes ?? 0);
}

describe('regression: a mass retake (issue 29, finding 5)', function () {
  this.timeout(180000);
  const started: ServiceProcess[] = [];
  let prefix: string;
  let receiver: CallbackReceiver;

  beforeEach(async () => {
    prefix = uniquePrefix();
    receiver = await startCallbackReceiver([200]);
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
    await receiver.close();
    await deletePrefix(prefix).catch(() => undefined);
  });

  function environment(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...TEST_REDIS_ENVIRONMENT,
      QUEUE_PREFIX: prefix,
      SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR,
      COMPLETION_CALLBACK_SECRET: 'e2e-secret',
      CALLBACK_ALLOW_PRIVATE_HOSTS: 'true',
      ...extra,
    };
  }

  it(`should retake the ${RUNS} runs of a killed worker one quarantine at a time, within its memory bound, and complete each once`, async () => {
    const { api, baseUrl } = await spawnApi(environment());
    started.push(api);
    const doomed = spawnService(
      'worker',
      environment({ MOCK_INFERENCE_LATENCY_MS: '600000', WORKER_LOCK_DURATION_MS: '1000' }),
    );
    started.push(doomed);
    await doomed.waitForLog((line) => line['msg'] === 'worker started');
    const ids = Array.from({ length: RUNS }, (_, index) => `retake-${index}`);
    expect(await Promise.all(ids.map((id) => start(baseUrl, id, receiver.url)))).to.deep.equal(ids.map(() => 202));
    await pollUntil(
      async () => doomed.logs.filter((line) => line['msg'] === 'run:started').length,
      (count) => count === RUNS,
      60000,
    );
    await doomed.stop('SIGKILL');

    // the rescuer's defaults but for a small heap (a tight bound) and a lock short enough to find the dead worker's
    // runs
    // stalled on a second check soon, long enough that a machine busy with other tests does not make it lose one
    const rescuer = spawnService(
      'worker',
      environment({ RUN_QUARANTINE_HEAP_MIB: String(QUARANTINE_HEAP_MIB), WORKER_LOCK_DURATION_MS: '10000' }),
    );
    started.push(rescuer);
    const high: TreeHigh = { quarantines: 0, quarantineRssBytes: 0, workerRssBytes: 0 };
    // the bound is checked as the retake goes, so a breach ends the test at once (before a fork storm grows)
    let breach: (error: Error) => void = () => undefined;
    const breached = new Promise<never>((_, reject) => {
      breach = reject;
    });
    const sampler = setInterval(() => {
      sampleTree(rescuer.child.pid!, high);
      if (high.quarantines > 1) breach(new Error(`${high.quarantines} quarantine processes at once`));
    }, 100);
    try {
      await rescuer.waitForLog((line) => line['msg'] === 'worker started');
      const idleRssBytes = processTree(rescuer.child.pid!)[0]!.rssBytes;
      await Promise.race([
        pollUntil(
          async () => (await Promise.all(ids.map((id) => statusOf(baseUrl, id)))).filter((s) => s !== 'COMPLETED'),
          (pending) => pending.length === 0 || pending.includes('FAILED'),
          150000,
          500,
        ),
        breached,
      ]);
      expect(high.quarantines, 'quarantine processes at once (RUN_QUARANTINE_CONCURRENCY)').to.equal(1);
      expect(high.quarantineRssBytes / MIB, 'RSS of the quarantine processes, MiB').to.be.below(
        QUARANTINE_HEAP_MIB + RUNTIME_ALLOWANCE_MIB,
      );
      expect(high.workerRssBytes / MIB, 'RSS of the worker itself, MiB').to.be.below(idleRssBytes / MIB + 128);
    } finally {
      clearInterval(sampler);
    }
    expect(await Promise.all(ids.map((id) => statusOf(baseUrl, id)))).to.deep.equal(ids.map(() => 'COMPLETED'));
    const callbacks = await receiver.successes(RUNS);
    expect(
      callbacks
        .map((delivery) => JSON.parse(delivery.body) as { pipeline_run_id: string; status: string })
        .map((body) => `${body.pipeline_run_id} ${body.status}`),
    ).to.have.members(ids.map((id) => `${id} COMPLETED`));
    expect(rescuer.logs.filter((line) => String(line['msg']).startsWith('run:quarantined'))).to.have.length(RUNS);
    expect(rescuer.logs.filter((line) => String(line['msg']).startsWith('run:failed'))).to.deep.equal([]);
  });

  describe('when the run completes while the job it stalled out of is failed', () => {
    const keys = new QueueKeys(uniquePrefix());
    let redis: RedisClient;
    let registry: RunRegistry;
    let sent: CallbackJob[];
    let events: ReturnType<typeof memoryRuns>['events'];

    beforeEach(() => {
      redis = openRedis(TEST_REDIS_TARGET, 'producer');
      registry = new RunRegistry(redis, keys, 60, 100);
      sent = [];
      events = memoryRuns({
        ttlSeconds: 60,
        maxRuns: 10,
        maxBytes: 1 << 20,
        maxEventsPerRun: 10,
        now: Date.now,
      }).events;
    });

    afterEach(async () => {
      redis.disconnect();
      await deletePrefix(keys.prefix);
    });

    it('should never record the crash over the completed run, nor call back or publish a second end', async () => {
      const createdAt = Date.parse('2026-11-28T10:00:00.000Z');
      const running: RunRecord = {
        pipeline_run_id: 'raced',
        workflow_id: 'raced',
        state: 'RUNNING',
        pipe_code: 'greet_person',
        owner: 'single-tenant',
        storage_scope: 'single-tenant',
        request_id: 'req-raced',
        created_at: new Date(createdAt).toISOString(),
        started_at: new Date(createdAt).toISOString(),
        finished_at: null,
      };
      const payload: RunJob = {
        pipeline_run_id: 'raced',
        request_id: 'req-raced',
        owner: 'single-tenant',
        sources: [{ content: GREETING_BUNDLE, source: null }],
        pipe_code: null,
        inputs: { name: 'Ada' },
        output_name: null,
        output_multiplicity: null,
        dynamic_output_concept_ref: null,
        storage_scope: 'single-tenant',
        callback_urls: ['https://hooks.example.com/done'],
        method_provenance: null,
        created_at: createdAt,
      };
      expect(await registry.claim({ ...running, state: 'STARTED', started_at: null })).to.equal('claimed');
      await registry.save(running);
      // the handler of the job stalled a second time read the record while the retake still ran …
      const readBeforeTheEnd: RunStore = Object.create(registry, { get: { value: async () => running } });
      // … and the retake completed before the handler wrote its crash report
      const completed: RunRecord = { ...running, state: 'COMPLETED', finished_at: new Date().toISOString() };
      await registry.finish(completed);
      const settings = testSettings();
      const store = openObjectStore(settings.storage);
      const metrics = new Metrics();
      try {
        await recordRunFailure(
          {
            registry: readBeforeTheEnd,
            events,
            callbacks: {
              send: async (jobs) => {
                sent.push(...jobs);
              },
            },
            metrics,
            objects: loggedRunObjects(store, settings.storage, createLogger('silent', 'test')),
            checkpoints: new RunCheckpoints(redis, keys, {
              ttlSeconds: 60,
              retentionSeconds: 0,
              maxBytes: 0,
              onProblem: () => undefined,
            }),
            logger: createLogger('silent', 'test'),
            now: Date.now,
          },
          payload,
          { ...toErrorReport(new RunCrashedError("Run 'raced' was stopped: …"), ''), pipe_code: 'greet_person' },
        );
      } finally {
        store.close();
      }
      expect(await registry.get('raced')).to.deep.equal(completed);
      expect(sent).to.deep.equal([]);
      expect(await events.progress('raced')).to.equal(undefined);
      expect((await metrics.runsFinished.get()).values).to.deep.equal([]);
    });
  });
});
