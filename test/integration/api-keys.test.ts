/**
 * The API-key routes and organizations (docs/api.md#api-keys, docs/api.md#organizations) on a real PostgreSQL, in
 * process, `AUTH_MODE=api_key`: the hosted wire shapes of create, list, rotate and revoke; the bootstrap admin acting
 * on
 * a named organization; two organizations kept apart; the per-organization limit.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { AdvancingClock } from '../helpers/advancing-clock.js';
import { buildControlPlaneApp, closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { pollUntil } from '../helpers/poll.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { buildTestApp } from '../helpers/test-app.js';

/** The deployment's `API_KEY`: the bootstrap admin. */
const ADMIN = 'a-bootstrap-admin-key';
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const KEY_SHAPE = /^plx_sk_[A-Za-z0-9_-]{43}$/;

/** A key as `POST /v1/pipelex-api-keys` answers it. */
interface Issued {
  api_key: string;
  id: string;
  label: string;
  prefix: string;
  created_at: string;
}

/** The members of a problem document a test pins (the rest vary by request). */
function problem(body: Record<string, unknown>): Record<string, unknown> {
  const { type: _type, instance: _instance, request_id: _requestId, ...pinned } = body;
  return pinned;
}

describe('API keys and organizations (HTTP, AUTH_MODE=api_key, PostgreSQL)', function () {
  afterEach(closeControlPlaneApps);
  this.timeout(30_000);
  let clock: AdvancingClock;
  let app: Express;

  const call = (token: string) => ({
    get: (path: string) => request(app).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object) => {
      const pending = request(app).post(path).set('Authorization', `Bearer ${token}`);
      return body === undefined ? pending : pending.send(body);
    },
    delete: (path: string) => request(app).delete(path).set('Authorization', `Bearer ${token}`),
  });
  const admin = call(ADMIN);

  async function organization(name: string): Promise<string> {
    const created = await admin.post('/v1/organizations', { name }).expect(201);
    return created.body.org_id as string;
  }

  async function issue(organizationId: string, label: string): Promise<Issued> {
    const created = await admin.post('/v1/pipelex-api-keys', { label, organization_id: organizationId }).expect(201);
    return created.body as Issued;
  }

  const suite = useTestControlPlane();
  beforeEach(() => {
    clock = new AdvancingClock();
    app = buildControlPlaneApp(
      suite.database,
      { AUTH_MODE: 'api_key', API_KEY: ADMIN, API_KEYS_MAX_PER_ORGANIZATION: '3' },
      clock.now,
    );
  });

  it('should create an organization and its key, list, rotate and revoke it in the hosted shapes', async () => {
    const created = await admin.post('/v1/organizations', { name: 'Acme' }).expect(201);
    expect(Object.keys(created.body)).to.deep.equal(['org_id', 'name', 'created_at']);
    expect(created.body).to.deep.include({ name: 'Acme' });
    expect(created.body.org_id).to.match(/^org_[A-Za-z0-9_-]{16}$/);
    expect(created.body.created_at).to.match(ISO_TIME);
    const acme = created.body.org_id as string;

    const issued = await admin.post('/v1/pipelex-api-keys', { label: 'ci', organization_id: acme }).expect(201);
    expect(Object.keys(issued.body)).to.deep.equal(['api_key', 'id', 'label', 'prefix', 'created_at']);
    const key = issued.body as Issued;
    expect(key.api_key).to.match(KEY_SHAPE);
    expect(key.id).to.match(/^key_[A-Za-z0-9_-]{16}$/);
    expect(key).to.deep.include({ label: 'ci', prefix: key.api_key.slice(0, 11) });
    expect(key.created_at).to.match(ISO_TIME);

    const listed = await admin.get(`/v1/pipelex-api-keys?organization_id=${acme}`).expect(200);
    expect(listed.body).to.deep.equal({
      keys: [
        {
          id: key.id,
          label: 'ci',
          prefix: key.prefix,
          created_at: key.created_at,
          last_used_at: null,
          expires_at: null,
        },
      ],
    });

    const rotated = await call(key.api_key).post(`/v1/pipelex-api-keys/${key.id}/rotate`).expect(201);
    expect(Object.keys(rotated.body)).to.deep.equal(['api_key', 'id', 'label', 'prefix', 'created_at']);
    const next = rotated.body as Issued;
    expect(next.api_key).to.match(KEY_SHAPE).and.not.equal(key.api_key);
    expect(next.label).to.equal('ci');
    const afterRotation = await call(next.api_key).get('/v1/pipelex-api-keys').expect(200);
    expect(afterRotation.body.keys.map((item: { id: string }) => item.id)).to.deep.equal([next.id]);

    const revoked = await call(next.api_key).delete(`/v1/pipelex-api-keys/${next.id}`).expect(204);
    expect(revoked.text).to.equal('');
    const empty = await admin.get(`/v1/pipelex-api-keys?organization_id=${acme}`).expect(200);
    expect(empty.body).to.deep.equal({ keys: [] });
  });

  it('should take an expiry in the future, list it, and refuse one in the past', async () => {
    const acme = await organization('Acme');
    const expiresAt = new Date(clock.now() + 3_600_000).toISOString();
    await admin
      .post('/v1/pipelex-api-keys', { label: 'temp', expires_at: expiresAt, organization_id: acme })
      .expect(201);
    const listed = await admin.get(`/v1/pipelex-api-keys?organization_id=${acme}`).expect(200);
    expect(listed.body.keys[0]).to.deep.include({ label: 'temp', expires_at: expiresAt });
    const past = new Date(clock.now() - 1000).toISOString();
    const refused = await admin
      .post('/v1/pipelex-api-keys', { label: 'old', expires_at: past, organization_id: acme })
      .expect(422);
    expect(problem(refused.body)).to.deep.equal({
      title: 'Validation error',
      status: 422,
      detail: 'body.expires_at: must lie in the future',
      error_type: 'ValidationError',
      error_domain: 'input',
      retryable: false,
    });
  });

  it('should keep two organizations apart: neither sees, revokes nor rotates the other’s keys', async () => {
    const acme = await organization('Acme');
    const globex = await organization('Globex');
    const ours = await issue(acme, 'ours');
    const theirs = await issue(globex, 'theirs');
    const mine = call(ours.api_key);

    const listed = await mine.get('/v1/pipelex-api-keys').expect(200);
    expect(listed.body.keys.map((item: { id: string }) => item.id)).to.deep.equal([ours.id]);
    for (const answer of [
      await mine.delete(`/v1/pipelex-api-keys/${theirs.id}`),
      await mine.post(`/v1/pipelex-api-keys/${theirs.id}/rotate`),
    ]) {
      expect(answer.status).to.equal(404);
      expect(problem(answer.body)).to.deep.equal({
        title: 'API key not found',
        status: 404,
        detail: `No live API key '${theirs.id}' in organization '${acme}'.`,
        error_type: 'ApiKeyNotFoundError',
        code: 'api_key_not_found',
        error_domain: 'input',
        retryable: false,
      });
    }
    const named = await mine.get(`/v1/pipelex-api-keys?organization_id=${globex}`).expect(404);
    expect(named.body).to.deep.include({ error_type: 'OrganizationNotFoundError', code: 'organization_not_found' });
    const still = await call(theirs.api_key).get('/v1/pipelex-api-keys').expect(200);
    expect(still.body.keys.map((item: { id: string }) => item.id)).to.deep.equal([theirs.id]);
  });

  it('should answer 409 pipelex_api_key_limit_reached past API_KEYS_MAX_PER_ORGANIZATION active keys', async () => {
    const acme = await organization('Acme');
    const first = await issue(acme, 'one');
    await issue(acme, 'two');
    await issue(acme, 'three');
    const refused = await admin.post('/v1/pipelex-api-keys', { label: 'four', organization_id: acme }).expect(409);
    expect(problem(refused.body)).to.deep.equal({
      title: 'API key limit reached',
      status: 409,
      detail: `Organization '${acme}' already holds 3 active API keys, the most it may hold (API_KEYS_MAX_PER_ORGANIZATION); revoke one first.`,
      error_type: 'ApiKeyLimitReachedError',
      code: 'pipelex_api_key_limit_reached',
      error_domain: 'input',
      retryable: false,
    });
    await admin.delete(`/v1/pipelex-api-keys/${first.id}?organization_id=${acme}`).expect(204);
    await admin.post('/v1/pipelex-api-keys', { label: 'four', organization_id: acme }).expect(201);
  });

  it('should let only the bootstrap admin create organizations, and make it name the one it acts on', async () => {
    const acme = await organization('Acme');
    const key = await issue(acme, 'ci');
    const forbidden = await call(key.api_key).post('/v1/organizations', { name: 'Mine' }).expect(403);
    expect(forbidden.body).to.deep.include({ error_type: 'BootstrapAdminRequired', code: 'bootstrap_admin_required' });
    const unnamed = await admin.get('/v1/pipelex-api-keys').expect(422);
    expect(unnamed.body.detail).to.equal(
      'query.organization_id: required for the bootstrap admin (the organization to act on)',
    );
    const unknown = await admin.post('/v1/pipelex-api-keys', { label: 'x', organization_id: 'org_nope' }).expect(404);
    expect(unknown.body).to.deep.include({ error_type: 'OrganizationNotFoundError', code: 'organization_not_found' });
    const blank = await admin.post('/v1/organizations', { name: '  ' }).expect(422);
    expect(blank.body.error_type).to.equal('ValidationError');
  });

  it('should record when a key was last used', async () => {
    const acme = await organization('Acme');
    const key = await issue(acme, 'ci');
    await call(key.api_key).get('/v1/version').expect(200);
    // The write is off the request path: it may land after the answer, so wait for the row, not for time.
    const used = await pollUntil(
      () =>
        suite.database.db
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('id', '=', key.id)
          .executeTakeFirstOrThrow()
          .then((row) => row.last_used_at),
      (value) => value !== null,
    );
    const listed = await admin.get(`/v1/pipelex-api-keys?organization_id=${acme}`).expect(200);
    expect(listed.body.keys[0].last_used_at).to.equal(used?.toISOString());
  });

  it('should list api_keys, runs and usage among the version’s extensions, and serve no key route without a control plane', async () => {
    const version = await admin.get('/v1/version').expect(200);
    expect(version.body.extensions).to.deep.equal(['api_keys', 'methods', 'method_versions', 'runs', 'usage']);
    const bare = buildTestApp();
    const plain = await request(bare).get('/v1/version').expect(200);
    expect(plain.body).to.not.have.property('extensions');
    const unserved = await request(bare).get('/v1/pipelex-api-keys').expect(404);
    expect(unserved.body).to.not.have.property('code');
  });
});
