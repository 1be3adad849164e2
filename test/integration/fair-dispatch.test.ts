/**
 * The dispatch gate (docs/fair-dispatch.md) on a queue deployment (real Redis, mock inference, JWT owners): an owner's
 * runs past its in-flight limit wait in its own line, in priority then arrival order; past its waiting limit a start
 * is a 429 with `Retry-After`; another owner's runs go to the queue at once; a priority above the ceiling is a 403;
 * a run taken off a line by a dispatcher that died is added by another process.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import request from 'supertest';
import { selectInferenceBackend } from '../../shared/inference/index.js';
import { createLogger, Metrics } from '../../shared/observability/index.js';
import { PARK_RUN } from '../../shared/orchestration/fairness/gate-scripts.js';
import type { RunRecord, WorkerPool } from '../../shared/orchestration/index.js';
import { JobSeals, QueueKeys, RunGate, RunQueue, startWorkerPool } from '../../shared/orchestration/queued.js';
import { CLAIM_RUN_ID } from '../../shared/orchestration/registry/run-ownership-scripts.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { JWT_ENVIRONMENT, signTestJwt } from '../helpers/jwt.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { testRedis } from '../helpers/redis.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-servers.js';

const START = { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } };

describe('the dispatch gate (queue mode, real Redis)', function () {
  this.timeout(60_000);
  let deployment: QueueDeployment;
  let pool: WorkerPool | undefined;
  let alice: string;
  let bob: string;

  before(async () => {
    alice = await signTestJwt({ user_id: 'alice' });
    bob = await signTestJwt({ user_id: 'bob' });
  });

  function open(environment: Record<string, string>): void {
    deployment = startQueueDeployment({
      workers: false,
      environment: { ...JWT_ENVIRONMENT, INFERENCE_PROFILE: 'mock', ...environment },
    });
  }

  let ownRedis: RedisServer | undefined;

  afterEach(async () => {
    await pool?.close();
    pool = undefined;
    await deployment.close();
    await ownRedis?.stop();
    ownRedis = undefined;
  });

  const start = (token: string, body: object = START) =>
    request(deployment.app).post('/v1/start').set('Authorization', `Bearer ${token}`).send(body);

  const queued = () => deployment.backend.runQueue.counts();

  function startWorkers(): void {
    const { settings } = deployment;
    const inference = selectInferenceBackend(settings.inference, settings.serviceConfigDir, {});
    pool = startWorkerPool({
      settings,
      logger: createLogger('silent', 'test'),
      metrics: new Metrics(),
      inference,
      readSecret: () => undefined,
    });
  }

  async function recordOf(runId: string): Promise<RunRecord> {
    const record = await deployment.backend.registry.get(runId);
    if (!record) throw new Error(`no record for ${runId}`);
    return record;
  }

  it('should queue an owner’s runs up to its in-flight limit, park the rest, refuse past the waiting limit, and queue another owner’s at once', async () => {
    open({ RUN_ORG_IN_FLIGHT_LIMIT: '2', RUN_ORG_WAITING_LIMIT: '3' });
    for (let index = 0; index < 5; index += 1) await start(alice).expect(202);
    expect(await queued()).to.include({ prioritized: 2 });
    const refused = await start(alice).expect(429);
    expect(refused.headers['retry-after']).to.equal('5');
    expect(refused.body).to.deep.include({
      type: refused.body.type,
      title: 'Runs waiting limit',
      status: 429,
      error_type: 'RunsWaitingLimitError',
      error_domain: 'runtime',
      retryable: true,
      code: 'runs_waiting_limit',
      detail:
        'Your organization already has 3 runs waiting for the run queue (RUN_ORG_WAITING_LIMIT); nothing was stored. Retry once some have started.',
    });
    await start(bob).expect(202);
    expect(await queued()).to.include({ prioritized: 3 });
    const operator = await signTestJwt({ user_id: 'ops', roles: ['operator'] });
    const metrics = await request(deployment.app)
      .get('/metrics')
      .set('Authorization', `Bearer ${operator}`)
      .expect(200);
    expect(metrics.text).to.include('mthds_runs_gated_total{outcome="queued"} 3');
    expect(metrics.text).to.include('mthds_runs_gated_total{outcome="parked"} 3');
    expect(metrics.text).to.include('mthds_runs_gated_total{outcome="refused"} 1');
    expect(metrics.text).to.include('mthds_queue_jobs{queue="runs",state="gated"} 3');
  });

  it('should line the starts of an owner whose runs wait in their claim: one script call each, no park', async () => {
    // a Redis of the test's own, whose script calls this test watches
    ownRedis = await startRedisServer([]);
    open({ REDIS_URL: `redis://127.0.0.1:${ownRedis.port}`, RUN_ORG_IN_FLIGHT_LIMIT: '1' });
    const sha = (lua: string) => createHash('sha1').update(lua).digest('hex');
    const scripts: Record<string, string> = { [sha(CLAIM_RUN_ID)]: 'claim', [sha(PARK_RUN)]: 'park' };
    const texts: Record<string, string> = {
      [sha(CLAIM_RUN_ID)]: "local holder = redis.call('GET', KEYS[2])",
      [sha(PARK_RUN)]: "redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])",
    };
    const other = new Redis(ownRedis.port, '127.0.0.1');
    await other.ping();
    const monitor = await other.monitor();
    const seen: string[] = [];
    let marked = false;
    monitor.on('monitor', (_time: string, args: string[]) => {
      const command = args[0]?.toLowerCase();
      // a script's first call on a connection sends its text (EVAL, which MONITOR shows escaped: told by a line of
      // its own), the next ones its SHA-1 (EVALSHA)
      const script =
        command === 'evalsha'
          ? args[1]
          : command === 'eval'
            ? Object.keys(texts).find((name) => args[1]?.includes(texts[name] ?? ''))
            : undefined;
      if (command === 'echo' && args[1] === 'starts-done') marked = true;
      else if (script && scripts[script]) seen.push(scripts[script]);
    });
    try {
      const runs: string[] = [];
      for (let index = 0; index < 5; index += 1)
        runs.push((await start(alice).expect(202)).body.pipeline_run_id as string);
      await other.echo('starts-done');
      await pollUntil(
        () => Promise.resolve(marked),
        (done) => done,
        10_000,
      );
      // the first goes to the queue; the second is claimed, then parked; the next three are lined by their claim
      expect(seen).to.deep.equal(['claim', 'claim', 'park', 'claim', 'claim', 'claim']);
      const keys = new QueueKeys(deployment.settings.queue.prefix);
      expect(await other.zrange(keys.gateLine('alice'), '0', '-1')).to.deep.equal(runs.slice(1));
      startWorkers();
      await pollUntil(
        () => Promise.all(runs.map(async (runId) => (await recordOf(runId)).state)),
        (states) => states.every((state) => state === 'COMPLETED'),
        30_000,
      );
    } finally {
      monitor.disconnect();
      other.disconnect();
    }
  });

  it('should hand each freed slot to the head of the owner’s line: higher priority first, then arrival', async () => {
    open({ RUN_ORG_IN_FLIGHT_LIMIT: '1' });
    const first = (await start(alice, { ...START, priority: 5 }).expect(202)).body.pipeline_run_id as string;
    const low = (await start(alice, { ...START, priority: 1 }).expect(202)).body.pipeline_run_id as string;
    const high = (await start(alice, { ...START, priority: 9 }).expect(202)).body.pipeline_run_id as string;
    const middle = (await start(alice).expect(202)).body.pipeline_run_id as string;
    expect(await queued()).to.include({ prioritized: 1 });
    startWorkers();
    const runs = [first, low, high, middle];
    await pollUntil(
      () => Promise.all(runs.map(async (runId) => (await recordOf(runId)).state)),
      (states) => states.every((state) => state === 'COMPLETED'),
      30_000,
    );
    const started = await Promise.all(runs.map(async (runId) => Date.parse((await recordOf(runId)).started_at ?? '')));
    const order = runs.map((runId, index) => ({ runId, at: started[index] as number })).sort((a, b) => a.at - b.at);
    expect(order.map((entry) => entry.runId)).to.deep.equal([first, high, middle, low]);
  });

  it('should refuse a priority above the ceiling with a 403, and one out of range with a 422', async () => {
    open({ RUN_PRIORITY_CEILING: '6' });
    const refused = await start(alice, { ...START, priority: 7 }).expect(403);
    expect(refused.body).to.deep.include({
      error_type: 'PriorityAboveCeilingError',
      code: 'priority_above_ceiling',
      detail: "priority 7 is above your organization's priority ceiling (6); ask for 6 or less.",
    });
    await start(alice, { ...START, priority: 6 }).expect(202);
    const invalid = await start(alice, { ...START, priority: 11 }).expect(422);
    expect(invalid.body.error_type).to.equal('ValidationError');
    expect(await queued()).to.include({ prioritized: 1 });
  });

  it('should take a run cancelled while it waits in its line out of the line, its job dropped and no slot taken', async () => {
    open({ RUN_ORG_IN_FLIGHT_LIMIT: '1' });
    await start(alice).expect(202);
    const parked = (await start(alice).expect(202)).body.pipeline_run_id as string;
    const cancelled = await request(deployment.app)
      .post(`/v1/runs/${parked}/cancel`)
      .set('Authorization', `Bearer ${alice}`)
      .expect(202);
    expect(cancelled.body.status).to.equal('CANCELLED');
    const keys = new QueueKeys(deployment.settings.queue.prefix);
    const connection = testRedis({ maxRetriesPerRequest: null });
    try {
      expect(await connection.zcard(keys.gateLine('alice'))).to.equal(0);
      expect(await connection.hlen(keys.gateJobs)).to.equal(0);
      expect(await connection.zcard(keys.gateInFlight('alice'))).to.equal(1);
    } finally {
      connection.disconnect();
    }
    expect(await queued()).to.include({ prioritized: 1 });
  });

  it('should add a run a dispatcher took off its line and never added (it died), from another process', async () => {
    open({ RUN_ORG_IN_FLIGHT_LIMIT: '1' });
    await start(alice).expect(202);
    const parked = (await start(alice).expect(202)).body.pipeline_run_id as string;
    const { settings } = deployment;
    const keys = new QueueKeys(settings.queue.prefix);
    const connection = testRedis({ maxRetriesPerRequest: null });
    // the dispatcher "died" after taking the run: in flight and dispatching, 20 s ago, never added
    const taken = await connection.zpopmin(keys.gateLine('alice'));
    expect(taken[0]).to.equal(parked);
    const longAgo = Date.now() - 20_000;
    await connection.zadd(keys.gateInFlight('alice'), longAgo, parked);
    await connection.zadd(keys.gateDispatching, longAgo, parked);
    const queue = new RunQueue({
      connection,
      eventsConnection: () => connection,
      keys,
      seals: new JobSeals(connection, keys),
      maxAttempts: 1,
      keepSeconds: 60,
    });
    const gate = new RunGate({ redis: connection, keys, queue, now: Date.now });
    expect(await gate.reclaim()).to.equal(1);
    expect(await queued()).to.include({ prioritized: 2 });
    expect(await connection.zcard(keys.gateDispatching)).to.equal(0);
    expect(await connection.hlen(keys.gateJobs)).to.equal(0);
    gate.close();
    await queue.close();
    connection.disconnect();
  });
});
