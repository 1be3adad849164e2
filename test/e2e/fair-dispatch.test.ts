/**
 * Fair sharing of the run queue between organizations (docs/fair-dispatch.md), at scale: a backlog of 5,000 runs of
 * one organization does not hold back the 20 runs another starts after it, and organizations with shares 3 and 1
 * complete runs 3 to 1 while both keep their lines full. Real Redis, in-process workers, mock inference with latency.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { selectInferenceBackend } from '../../shared/inference/index.js';
import { createLogger, Metrics } from '../../shared/observability/index.js';
import type { RunRecord, WorkerPool } from '../../shared/orchestration/index.js';
import { QueueKeys, startWorkerPool } from '../../shared/orchestration/queued.js';
import { closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { JWT_ENVIRONMENT, signTestJwt } from '../helpers/jwt.js';
import { pollUntil } from '../helpers/poll.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { testRedis } from '../helpers/redis.js';
import { startMany as startManyRuns } from '../helpers/start-many.js';

const ADMIN = 'fair-dispatch-admin-key';

describe('fair dispatch between organizations (queue mode, at scale)', function () {
  this.timeout(300_000);
  const suite = useTestControlPlane();
  let deployment: QueueDeployment;
  let pool: WorkerPool | undefined;
  let redis: Redis;

  beforeEach(() => {
    redis = testRedis({ maxRetriesPerRequest: null });
  });
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
    await deployment.close();
    redis.disconnect();
    await closeControlPlaneApps();
  });

  function startWorkers(): void {
    const { settings } = deployment;
    pool = startWorkerPool({
      settings,
      logger: createLogger('silent', 'test'),
      metrics: new Metrics(),
      inference: selectInferenceBackend(settings.inference, settings.serviceConfigDir, {}),
      readSecret: () => undefined,
    });
  }

  const startMany = (token: string, count: number, parallel: number) =>
    startManyRuns(deployment.app, token, count, parallel);

  async function records(runIds: readonly string[]): Promise<RunRecord[]> {
    const keys = new QueueKeys(deployment.settings.queue.prefix);
    const texts = await redis.mget(...runIds.map((runId) => keys.run(runId)));
    return texts.map((text) => JSON.parse(text ?? 'null') as RunRecord);
  }

  it('should start the 20 runs of one organization ahead of the 5,000-run backlog of another, and complete them while that backlog drains', async () => {
    deployment = startQueueDeployment({
      workers: false,
      environment: {
        ...JWT_ENVIRONMENT,
        INFERENCE_PROFILE: 'mock',
        MOCK_INFERENCE_LATENCY_MS: '200',
        RUN_ORG_IN_FLIGHT_LIMIT: '20',
        WORKER_CONCURRENCY: '20',
        WORKER_SHUTDOWN_GRACE_MS: '0',
      },
    });
    const flooding = await signTestJwt({ user_id: 'flooding' });
    const other = await signTestJwt({ user_id: 'other' });
    const backlog = await startMany(flooding, 5000, 25);
    const keys = new QueueKeys(deployment.settings.queue.prefix);
    expect(await redis.zcard(keys.gateLine('flooding'))).to.equal(4980);
    const late = await startMany(other, 20, 5);
    expect(await redis.zcard(keys.gateLine('other'))).to.equal(0);
    startWorkers();
    const done = await pollUntil(
      () => records(late),
      (runs) => runs.every((run) => run.state === 'COMPLETED'),
      60_000,
      100,
    );
    // the backlog is still draining: most of it has not even reached the queue
    expect(await redis.zcard(keys.gateLine('flooding'))).to.be.above(4000);
    const lastLateStart = Math.max(...done.map((run) => Date.parse(run.started_at ?? '')));
    const flood = await records(backlog);
    const floodStartedBefore = flood.filter(
      (run) => run.started_at !== null && Date.parse(run.started_at) < lastLateStart,
    ).length;
    // without the gate all 5,000 would start first; with it, at most the flooding organization's in-flight limit
    // (and the runs taken in the same few milliseconds) start before the other organization's last run
    expect(floodStartedBefore).to.be.at.most(40);
  });

  it('should complete runs 3 to 1 (± 10 %) for organizations with shares 3 and 1 that both keep their lines full', async () => {
    deployment = startQueueDeployment({
      workers: false,
      controlPlane: suite.database,
      environment: {
        AUTH_MODE: 'api_key',
        API_KEY: ADMIN,
        INFERENCE_PROFILE: 'mock',
        MOCK_INFERENCE_LATENCY_MS: '50',
        RUN_ORG_IN_FLIGHT_LIMIT: '4',
        WORKER_CONCURRENCY: '8',
        WORKER_SHUTDOWN_GRACE_MS: '0',
      },
    });
    const admin = (method: 'post' | 'put', path: string, body: object) =>
      request(deployment.app)[method](path).set('Authorization', `Bearer ${ADMIN}`).send(body);
    const organization = async (name: string, share: number) => {
      const orgId = (await admin('post', '/v1/organizations', { name }).expect(201)).body.org_id as string;
      const terms = await admin('put', `/v1/organizations/${orgId}/dispatch-terms`, {
        run_share: share,
        priority_ceiling: null,
      }).expect(200);
      expect(terms.body).to.deep.equal({ org_id: orgId, run_share: share, priority_ceiling: null });
      const key = await admin('post', '/v1/pipelex-api-keys', { label: 'ci', organization_id: orgId }).expect(201);
      return { orgId, key: key.body.api_key as string };
    };
    const larger = await organization('Larger', 3);
    const smaller = await organization('Smaller', 1);
    const perOrganization = 300;
    await Promise.all([startMany(larger.key, perOrganization, 5), startMany(smaller.key, perOrganization, 5)]);
    const keys = new QueueKeys(deployment.settings.queue.prefix);
    expect(await redis.zcard(keys.gateInFlight(larger.orgId))).to.equal(12);
    expect(await redis.zcard(keys.gateInFlight(smaller.orgId))).to.equal(4);
    const completed = async () => {
      const counts = await Promise.all(
        [larger, smaller].flatMap(({ orgId }) => [
          redis.zcard(keys.gateLine(orgId)),
          redis.zcard(keys.gateInFlight(orgId)),
        ]),
      );
      const [largerLine, largerFlight, smallerLine, smallerFlight] = counts as [number, number, number, number];
      return {
        larger: perOrganization - largerLine - largerFlight,
        smaller: perOrganization - smallerLine - smallerFlight,
      };
    };
    startWorkers();
    const first = await pollUntil(completed, (count) => count.larger >= 30, 60_000, 20);
    const second = await pollUntil(completed, (count) => count.larger >= 210, 60_000, 20);
    expect(second.smaller, 'the smaller organization still has runs waiting').to.be.below(perOrganization - 4);
    const ratio = (second.larger - first.larger) / (second.smaller - first.smaller);
    expect(ratio).to.be.within(2.7, 3.3);
  });
});
