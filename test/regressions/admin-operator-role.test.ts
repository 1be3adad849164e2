/**
 * Regression of issue 29, finding 2 (tenant takeover through `/admin/queues`): with `AUTH_MODE=jwt` any tenant's token
 * opened the queue dashboard and `/metrics`, read every run's job data and changed the queues. Now the operator routes
 * need the operator credential (`OPERATOR_API_KEY`, or a JWT whose `roles` claim lists `operator`), a tenant's
 * credential gets 403 `OperatorCredentialRequired`, and the dashboard is read-only unless
 * `ADMIN_QUEUES_READ_ONLY=false`
 * (docs/run-ownership.md#operators, deploy/README.md#the-queue-dashboard-in-a-browser).
 */
import { expect } from 'chai';
import request from 'supertest';
import { loadSettings, SettingsError } from '../../shared/config/index.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { JWT_ENVIRONMENT, signTestJwt, TEST_JWT_SECRET } from '../helpers/jwt.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';

const OPERATOR_KEY = 'operator-role-test-key-0123456789';
const API_KEY = 'operator-role-test-api-key';
const OPERATOR_PATHS = [
  '/admin/queues',
  '/admin/queues/',
  '/admin/queues/api/queues',
  '/admin/queues/api/queues/runs/some-run',
  '/admin/anything-else',
  '/metrics',
];
const TENANT_DETAIL = (credential: string) =>
  `The operator routes (/admin/*, /metrics) need the operator credential, which a tenant credential (the API key, or a JWT without the "operator" role) is not. Operator credential: ${credential}.`;

function basic(password: string): string {
  return `Basic ${Buffer.from(`anyone:${password}`, 'utf8').toString('base64')}`;
}

describe('regression: the operator routes need the operator credential, the dashboard is read-only (issue 29, finding 2)', function () {
  this.timeout(30000);
  let deployment: QueueDeployment;
  let started: QueueDeployment[] = [];
  const deploy = (environment: Record<string, string>) => {
    deployment = startQueueDeployment({ workers: false, environment });
    started.push(deployment);
  };

  afterEach(async () => {
    for (const running of started) await running.close();
    started = [];
  });

  describe('with AUTH_MODE=jwt', () => {
    let tenant: string;
    let operator: string;

    beforeEach(async () => {
      deploy({ ...JWT_ENVIRONMENT, OPERATOR_API_KEY: OPERATOR_KEY });
      tenant = await signTestJwt({ user_id: 'alice' });
      operator = await signTestJwt({ user_id: 'ops', roles: ['reader', 'operator'] });
    });

    it("should answer a tenant's token 403 OperatorCredentialRequired on the dashboard, its API, /admin/* and /metrics", async () => {
      for (const path of OPERATOR_PATHS) {
        for (const authorization of [`Bearer ${tenant}`, ...(path.startsWith('/admin') ? [basic(tenant)] : [])]) {
          const answer = await request(deployment.app).get(path).set('authorization', authorization);
          expect(answer.status, `${path} ${authorization.slice(0, 6)}`).to.equal(403);
          expect(answer.headers['content-type']).to.match(/^application\/problem\+json/);
          expect(answer.body).to.deep.include({
            title: 'Operator credential required',
            status: 403,
            detail: TENANT_DETAIL('OPERATOR_API_KEY or a JWT whose roles claim lists "operator"'),
            error_type: 'OperatorCredentialRequired',
            error_domain: 'input',
            retryable: false,
          });
        }
      }
      const pause = await request(deployment.app)
        .put('/admin/queues/api/queues/runs/pause')
        .set('authorization', `Bearer ${tenant}`);
      expect(pause.status).to.equal(403);
      expect(await deployment.backend.runQueue.queue.isPaused()).to.equal(false);
    });

    it('should answer a missing or invalid credential 401, with the Basic challenge on the dashboard', async () => {
      const missing = await request(deployment.app).get('/admin/queues/api/queues');
      expect(missing.status).to.equal(401);
      expect(missing.headers['www-authenticate']).to.equal(
        'Basic realm="MTHDS queue dashboard", charset="UTF-8", Bearer',
      );
      const forged = await signTestJwt({ user_id: 'mallory', roles: ['operator'] }, '5m', `${TEST_JWT_SECRET}-not`);
      const wrong = await request(deployment.app).get('/metrics').set('authorization', `Bearer ${forged}`);
      expect(wrong.status).to.equal(401);
      expect(wrong.headers['www-authenticate']).to.equal('Bearer');
      expect(wrong.body).to.include({ error_type: 'Unauthenticated' });
    });

    it('should serve the dashboard, its API and /metrics to an operator: the role claim or OPERATOR_API_KEY', async () => {
      for (const authorization of [
        `Bearer ${operator}`,
        basic(operator),
        `Bearer ${OPERATOR_KEY}`,
        basic(OPERATOR_KEY),
      ]) {
        const page = await request(deployment.app).get('/admin/queues/').set('authorization', authorization);
        expect(page.status, authorization.slice(0, 12)).to.equal(200);
        expect(page.headers['content-type']).to.match(/^text\/html/);
        const api = await request(deployment.app).get('/admin/queues/api/queues').set('authorization', authorization);
        expect(api.status).to.equal(200);
        const queues = (api.body as { queues: { name: string; readOnlyMode: boolean }[] }).queues;
        expect(queues.map((queue) => [queue.name, queue.readOnlyMode])).to.have.deep.members([
          ['runs', true],
          ['callbacks', true],
          ['run-children', true],
        ]);
      }
      for (const authorization of [`Bearer ${operator}`, `Bearer ${OPERATOR_KEY}`]) {
        const metrics = await request(deployment.app).get('/metrics').set('authorization', authorization);
        expect(metrics.status).to.equal(200);
        expect(metrics.text).to.include('mthds_queue_jobs');
      }
    });

    it("should refuse an operator's every write while read-only, before Bull Board acts", async () => {
      await request(deployment.app)
        .post('/v1/start')
        .set('authorization', `Bearer ${tenant}`)
        .send({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' }, pipeline_run_id: 'alice-run' })
        .expect(202);
      const queue = deployment.backend.runQueue.queue;
      const waiting = await queue.getJob('alice-run');
      const writes: [method: 'put' | 'post' | 'patch' | 'delete', path: string, body?: object][] = [
        ['put', '/admin/queues/api/queues/runs/pause'],
        ['put', '/admin/queues/api/queues/pause'],
        ['post', '/admin/queues/api/queues/runs/add', { name: 'run', data: { owner: 'alice' } }],
        ['patch', '/admin/queues/api/queues/runs/alice-run/update-data', { data: { owner: 'mallory' } }],
        ['put', '/admin/queues/api/queues/runs/alice-run/clean'],
        ['put', '/admin/queues/api/queues/runs/empty'],
        ['put', '/admin/queues/api/queues/runs/obliterate'],
        ['delete', '/admin/queues/api/queues/runs'],
      ];
      for (const [method, path, body] of writes) {
        const answer = await request(deployment.app)
          [method](path)
          .set('authorization', `Bearer ${OPERATOR_KEY}`)
          .send(body ?? {});
        expect(answer.status, `${method} ${path}`).to.equal(403);
        expect(answer.body).to.deep.include({
          title: 'Queue dashboard read-only',
          status: 403,
          detail: `The queue dashboard is read-only (ADMIN_QUEUES_READ_ONLY=true): a ${method.toUpperCase()} would change a queue. Set ADMIN_QUEUES_READ_ONLY=false on the API to allow its actions.`,
          error_type: 'QueueDashboardReadOnly',
        });
      }
      expect(await queue.isPaused()).to.equal(false);
      expect(await queue.getJobCounts('prioritized')).to.deep.equal({ prioritized: 1 });
      expect((await queue.getJob('alice-run'))?.data).to.deep.equal(waiting?.data);
    });
  });

  describe('with AUTH_MODE=api_key', () => {
    it('should refuse the API key (a tenant credential) and serve the operator key', async () => {
      deploy({ AUTH_MODE: 'api_key', API_KEY, OPERATOR_API_KEY: OPERATOR_KEY });
      for (const path of ['/admin/queues/', '/metrics']) {
        const tenant = await request(deployment.app).get(path).set('authorization', `Bearer ${API_KEY}`);
        expect(tenant.status, path).to.equal(403);
        expect(tenant.body).to.include({
          error_type: 'OperatorCredentialRequired',
          detail: TENANT_DETAIL('OPERATOR_API_KEY'),
        });
        expect(
          (await request(deployment.app).get(path).set('authorization', `Bearer ${OPERATOR_KEY}`)).status,
        ).to.equal(200);
      }
    });

    it('should keep the operator routes closed when no OPERATOR_API_KEY is configured', async () => {
      deploy({ AUTH_MODE: 'api_key', API_KEY });
      const answer = await request(deployment.app).get('/metrics').set('authorization', `Bearer ${API_KEY}`);
      expect(answer.status).to.equal(403);
      expect(answer.body).to.include({
        detail: TENANT_DETAIL('none is configured on this deployment (set OPERATOR_API_KEY on the server)'),
      });
    });
  });

  describe('with AUTH_MODE=none', () => {
    it('should leave the operator routes open without OPERATOR_API_KEY, and require it once set', async () => {
      deploy({});
      expect((await request(deployment.app).get('/metrics')).status).to.equal(200);
      deploy({ OPERATOR_API_KEY: OPERATOR_KEY });
      const missing = await request(deployment.app).get('/metrics');
      expect(missing.status).to.equal(401);
      expect((await request(deployment.app).get('/metrics').set('authorization', 'Bearer wrong')).status).to.equal(401);
      expect(
        (await request(deployment.app).get('/metrics').set('authorization', `Bearer ${OPERATOR_KEY}`)).status,
      ).to.equal(200);
    });
  });

  describe('OPERATOR_API_KEY', () => {
    it('should refuse to start with a short key, or one equal to API_KEY or JWT_SECRET_KEY', () => {
      const refusal = (environment: Record<string, string>) => {
        try {
          loadSettings(environment);
        } catch (error) {
          expect(error).to.be.instanceOf(SettingsError);
          return (error as SettingsError).problems;
        }
        return [];
      };
      expect(refusal({ OPERATOR_API_KEY: 'short' })).to.deep.equal([
        'OPERATOR_API_KEY: must be at least 16 characters (openssl rand -hex 32)',
      ]);
      const same =
        'OPERATOR_API_KEY: must differ from API_KEY and JWT_SECRET_KEY (the operator credential is never a tenant credential or a signing secret)';
      expect(refusal({ AUTH_MODE: 'api_key', API_KEY: OPERATOR_KEY, OPERATOR_API_KEY: OPERATOR_KEY })).to.deep.equal([
        same,
      ]);
      expect(refusal({ ...JWT_ENVIRONMENT, OPERATOR_API_KEY: TEST_JWT_SECRET })).to.deep.equal([same]);
    });
  });
});
