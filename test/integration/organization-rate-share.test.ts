/**
 * An organization's own share of the provider rate limits at the edge (docs/inference.md#organization-shares,
 * docs/api.md#organizations): the bootstrap admin sets it with `PUT /v1/organizations/{orgId}/inference-rate-share`,
 * and each queued run carries its organization — with that share, when it has one — to the worker in its job payload.
 * Queue mode without workers (the jobs stay queued to be read), `AUTH_MODE=api_key`, real Redis and PostgreSQL.
 */
import { expect } from 'chai';
import request from 'supertest';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';

/** The deployment's `API_KEY`: the bootstrap admin. */
const ADMIN = 'a-bootstrap-admin-key';
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The members of a problem document a test pins (the rest vary by request). */
function problem(body: Record<string, unknown>): Record<string, unknown> {
  const { type: _type, instance: _instance, request_id: _requestId, ...pinned } = body;
  return pinned;
}

describe('organization shares of the provider rate limits (HTTP, queue mode, PostgreSQL)', function () {
  this.timeout(60_000);
  const suite = useTestControlPlane();
  let deployment: QueueDeployment;

  const as = (token: string) => ({
    post: (path: string, body: object) =>
      request(deployment.app).post(path).set('Authorization', `Bearer ${token}`).send(body),
    put: (path: string, body: object) =>
      request(deployment.app).put(path).set('Authorization', `Bearer ${token}`).send(body),
  });
  const admin = as(ADMIN);
  const shareOf = (organization: string) => `/v1/organizations/${organization}/inference-rate-share`;

  async function organization(name: string): Promise<{ id: string; key: string }> {
    const id = (await admin.post('/v1/organizations', { name }).expect(201)).body.org_id as string;
    const issued = await admin.post('/v1/pipelex-api-keys', { label: 'ci', organization_id: id }).expect(201);
    return { id, key: issued.body.api_key as string };
  }

  /** The `rate_tenant` of the job a run started with `token` was queued as. */
  async function queuedTenant(token: string): Promise<unknown> {
    const ack = await as(token)
      .post('/v1/start', { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } })
      .expect(202);
    const job = await deployment.backend.runQueue.queue.getJob(ack.body.workflow_id as string);
    return job?.data.rate_tenant;
  }

  beforeEach(() => {
    deployment = startQueueDeployment({
      environment: { AUTH_MODE: 'api_key', API_KEY: ADMIN },
      controlPlane: suite.database,
      workers: false,
    });
  });
  afterEach(() => deployment.close());

  it("should set and clear an organization's share, and carry it with each of its runs to the worker", async () => {
    const acme = await organization('Acme');
    const globex = await organization('Globex');
    const set = await admin.put(shareOf(acme.id), { inference_rate_share: 0.25 }).expect(200);
    expect(Object.keys(set.body)).to.deep.equal(['org_id', 'name', 'created_at', 'inference_rate_share']);
    expect(set.body).to.deep.include({ org_id: acme.id, name: 'Acme', inference_rate_share: 0.25 });
    expect(set.body.created_at).to.match(ISO_TIME);

    expect(await queuedTenant(acme.key)).to.deep.equal({ key: acme.id, share: 0.25 });
    expect(await queuedTenant(globex.key), 'the deployment’s share, read by the worker').to.deep.equal({
      key: globex.id,
    });
    expect(await queuedTenant(ADMIN), 'the deployment principal is not capped').to.equal(undefined);

    const cleared = await admin.put(shareOf(acme.id), { inference_rate_share: null }).expect(200);
    expect(cleared.body).to.deep.include({ org_id: acme.id, inference_rate_share: null });
    const whole = await admin.put(shareOf(globex.id), { inference_rate_share: 1 }).expect(200);
    expect(whole.body).to.deep.include({ inference_rate_share: 1 });
  });

  it('should let only the bootstrap admin set a share, of a known organization, in (0, 1]', async () => {
    const acme = await organization('Acme');
    const forbidden = await as(acme.key).put(shareOf(acme.id), { inference_rate_share: 1 }).expect(403);
    expect(forbidden.body).to.include({ error_type: 'BootstrapAdminRequired', code: 'bootstrap_admin_required' });
    const unknown = await admin.put(shareOf('org_nobody'), { inference_rate_share: 0.5 }).expect(404);
    expect(problem(unknown.body)).to.deep.equal({
      title: 'Organization not found',
      status: 404,
      detail: "No organization 'org_nobody' exists.",
      error_type: 'OrganizationNotFoundError',
      error_domain: 'input',
      retryable: false,
      code: 'organization_not_found',
    });
    for (const body of [
      { inference_rate_share: 0 },
      { inference_rate_share: 1.5 },
      { inference_rate_share: '0.5' },
      {},
    ])
      expect((await admin.put(shareOf(acme.id), body).expect(422)).body.error_type).to.equal('ValidationError');
  });
});
