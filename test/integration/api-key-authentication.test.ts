/**
 * Authentication with the API keys of organizations (docs/api.md#api-keys, docs/run-ownership.md#who-owns-a-run), in
 * process on a real PostgreSQL: a revoked or expired key is refused (the cache's lifetime passed on a moved clock, no
 * sleep) exactly as a wrong token is; the caller routes; a run started with a key belongs to its organization; a JWT's
 * `org_id` claim; the operator routes; the OpenAPI document of a deployment with a control plane.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { STORE_KEY_CACHE_TTL_MS } from '../../api/middleware/store-key-lookup.js';
import { type ControlPlaneDatabase, openDatabase } from '../../shared/database/index.js';
import { AdvancingClock } from '../helpers/advancing-clock.js';
import { buildControlPlaneApp, closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { JWT_ENVIRONMENT, signTestJwt } from '../helpers/jwt.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

const ADMIN = 'a-bootstrap-admin-key';
const OPERATOR = 'an-operator-key-of-some-length';
const HELLO = {
  mthds_contents: [
    'domain = "hello_greeting"\nmain_pipe = "write_greeting"\n\n[pipe.write_greeting]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Hi $name."\n',
  ],
  inputs: { name: 'Ada' },
};

/** A 401 as the wire shows it, minus what varies by request. */
function refusal(response: request.Response): Record<string, unknown> {
  const { instance: _instance, request_id: _requestId, ...body } = response.body as Record<string, unknown>;
  return { status: response.status, challenge: response.headers['www-authenticate'], body };
}

describe('authentication with organizations’ API keys (PostgreSQL)', function () {
  afterEach(closeControlPlaneApps);
  this.timeout(30_000);
  let database: TestDatabase;
  let controlPlane: ControlPlaneDatabase;
  let clock: AdvancingClock;
  let app: Express;

  const as = (token: string) => ({
    get: (path: string) => request(app).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object) => request(app).post(path).set('Authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => request(app).delete(path).set('Authorization', `Bearer ${token}`),
  });

  async function organizationWithKey(
    name: string,
    expiresAt?: string,
  ): Promise<{ org: string; key: string; id: string }> {
    const org = (await as(ADMIN).post('/v1/organizations', { name }).expect(201)).body.org_id as string;
    const body = { label: name, organization_id: org, ...(expiresAt ? { expires_at: expiresAt } : {}) };
    const issued = await as(ADMIN).post('/v1/pipelex-api-keys', body).expect(201);
    return { org, key: issued.body.api_key as string, id: issued.body.id as string };
  }

  before(async () => {
    database = await createTestDatabase();
    controlPlane = await openDatabase({ url: database.url, embeddedDir: '', poolMax: 4 });
  });
  after(async () => {
    await controlPlane.close();
    await database.drop();
  });

  describe('when AUTH_MODE=api_key', () => {
    beforeEach(() => {
      clock = new AdvancingClock();
      app = buildControlPlaneApp(
        controlPlane,
        { AUTH_MODE: 'api_key', API_KEY: ADMIN, OPERATOR_API_KEY: OPERATOR },
        clock.now,
      );
    });

    it('should refuse a revoked key once the verification cache’s lifetime passed, as a wrong token', async () => {
      const acme = await organizationWithKey('Acme');
      await as(acme.key).get('/v1/me').expect(200);
      await as(ADMIN).delete(`/v1/pipelex-api-keys/${acme.id}?organization_id=${acme.org}`).expect(204);
      clock.advance(STORE_KEY_CACHE_TTL_MS + 1);
      const revoked = refusal(await as(acme.key).get('/v1/me'));
      const wrong = refusal(await as('not-the-key').get('/v1/me'));
      const unknownKey = refusal(await as(`plx_sk_${'A'.repeat(43)}`).get('/v1/me'));
      expect(wrong).to.deep.include({ status: 401, challenge: 'Bearer' });
      expect(wrong.body).to.deep.include({ error_type: 'Unauthenticated', detail: 'Invalid authentication token.' });
      expect(revoked).to.deep.equal(wrong);
      expect(unknownKey).to.deep.equal(wrong);
    });

    it('should refuse a key past its expiry at once, cached or not', async () => {
      const expiresAt = new Date(clock.now() + 60_000).toISOString();
      const acme = await organizationWithKey('Acme', expiresAt);
      await as(acme.key).get('/v1/me').expect(200);
      clock.advance(60_000);
      const expired = await as(acme.key).get('/v1/me').expect(401);
      expect(expired.body.detail).to.equal('Invalid authentication token.');
    });

    it('should tell the caller who it is, and verify any valid credential on both verify paths', async () => {
      const acme = await organizationWithKey('Acme');
      expect((await as(acme.key).get('/v1/me').expect(200)).body).to.deep.equal({
        email: null,
        user_id: acme.id,
        full_name: null,
      });
      expect((await as(ADMIN).get('/v1/me').expect(200)).body).to.deep.equal({
        email: null,
        user_id: 'single-tenant',
        full_name: null,
      });
      for (const path of ['/v1/auth/verify', '/platform/v1/auth/verify']) {
        expect((await as(acme.key).get(path).expect(200)).body, path).to.deep.equal({ valid: true, org_id: acme.org });
        expect((await as(ADMIN).get(path).expect(200)).body, path).to.deep.equal({ valid: true, org_id: null });
        const refused = await as('wrong').get(path).expect(401);
        expect(refused.body.error_type, path).to.equal('Unauthenticated');
        await request(app).get(path).expect(401);
      }
    });

    it('should make a run started with a key its organization’s: another organization gets 404 run_not_found', async () => {
      const acme = await organizationWithKey('Acme');
      const globex = await organizationWithKey('Globex');
      const second = await as(ADMIN).post('/v1/pipelex-api-keys', { label: 'second', organization_id: acme.org });
      const run = await as(acme.key).post('/v1/execute', HELLO).expect(200);
      const runId = run.body.pipeline_run_id as string;
      const status = await as(second.body.api_key as string)
        .get(`/v1/runs/${runId}/status`)
        .expect(200);
      expect(status.body).to.deep.include({ pipeline_run_id: runId, status: 'COMPLETED' });
      for (const outsider of [globex.key, ADMIN]) {
        const hidden = await as(outsider).get(`/v1/runs/${runId}/status`).expect(404);
        expect(hidden.body).to.deep.include({ error_type: 'RunNotFoundError', code: 'run_not_found' });
      }
      const foreignScope = await as(acme.key)
        .post('/v1/execute', { ...HELLO, storage_scope: globex.org })
        .expect(403);
      expect(foreignScope.body.code).to.equal('storage_ownership_mismatch');
      await as(acme.key)
        .post('/v1/execute', { ...HELLO, storage_scope: `${acme.org}/reports` })
        .expect(200);
    });

    it('should refuse an organization’s key on the operator routes as a tenant credential (403)', async () => {
      const acme = await organizationWithKey('Acme');
      const refused = await as(acme.key).get('/metrics').expect(403);
      expect(refused.body.error_type).to.equal('OperatorCredentialRequired');
    });

    it('should list the key routes in the OpenAPI document and answer as it documents', async () => {
      const document = (await as(ADMIN).get('/v1/openapi.json').expect(200)).body as {
        paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
      };
      const listed = Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method} ${path}`),
      );
      expect(listed).to.include.members([
        'get /v1/pipelex-api-keys',
        'post /v1/pipelex-api-keys',
        'delete /v1/pipelex-api-keys/{keyId}',
        'post /v1/pipelex-api-keys/{keyId}/rotate',
        'post /v1/organizations',
        'get /v1/me',
        'get /v1/auth/verify',
        'get /platform/v1/auth/verify',
      ]);
      const ajv = new Ajv2020({ strict: false });
      ajv.addSchema(document, 'openapi.json');
      const documented = (path: string, method: string, response: request.Response) => {
        const pointer = path.replaceAll('~', '~0').replaceAll('/', '~1');
        const media = String(response.headers['content-type']).split(';')[0]!;
        const validate = ajv.compile({
          $ref: `openapi.json#/paths/${pointer}/${method}/responses/${response.status}/content/${media.replace('/', '~1')}/schema`,
        });
        expect(validate(response.body), `${method} ${path} ${response.status}: ${JSON.stringify(validate.errors)}`).to
          .be.true;
      };
      const acme = await organizationWithKey('Acme');
      documented('/v1/pipelex-api-keys', 'get', await as(acme.key).get('/v1/pipelex-api-keys'));
      documented('/v1/pipelex-api-keys', 'post', await as(acme.key).post('/v1/pipelex-api-keys', { label: 'x' }));
      documented('/v1/pipelex-api-keys/{keyId}', 'delete', await as(acme.key).delete('/v1/pipelex-api-keys/key_x'));
      documented(
        '/v1/pipelex-api-keys/{keyId}/rotate',
        'post',
        await as(acme.key).post(`/v1/pipelex-api-keys/${acme.id}/rotate`),
      );
      documented('/v1/organizations', 'post', await as(ADMIN).post('/v1/organizations', { name: 'Doc' }));
      documented('/v1/organizations', 'post', await as(acme.key).post('/v1/organizations', { name: 'Doc' }));
      documented('/v1/me', 'get', await as(ADMIN).get('/v1/me'));
      documented('/v1/version', 'get', await as(ADMIN).get('/v1/version'));
      documented('/platform/v1/auth/verify', 'get', await request(app).get('/platform/v1/auth/verify'));
    });
  });

  describe('when AUTH_MODE=jwt', () => {
    beforeEach(() => {
      clock = new AdvancingClock();
      app = buildControlPlaneApp(controlPlane, JWT_ENVIRONMENT, clock.now);
    });

    it('should map the org_id claim to the organization, whose keys then verify too', async () => {
      const token = await signTestJwt({ user_id: 'alice', org_id: 'acme-corp' });
      expect((await as(token).get('/v1/auth/verify').expect(200)).body).to.deep.equal({
        valid: true,
        org_id: 'acme-corp',
      });
      expect((await as(token).get('/v1/me').expect(200)).body.user_id).to.equal('alice');
      const issued = await as(token).post('/v1/pipelex-api-keys', { label: 'bot' }).expect(201);
      const key = issued.body.api_key as string;
      expect((await as(key).get('/v1/auth/verify').expect(200)).body).to.deep.equal({
        valid: true,
        org_id: 'acme-corp',
      });
      const listed = await as(token).get('/v1/pipelex-api-keys').expect(200);
      expect(listed.body.keys.map((item: { label: string }) => item.label)).to.deep.equal(['bot']);
      const wrong = await as(`plx_sk_${'B'.repeat(43)}`)
        .get('/v1/me')
        .expect(401);
      expect(wrong.body.detail).to.equal("Invalid token: the JWT does not verify with this deployment's HS256 secret.");
    });

    it('should refuse a token without org_id on the key routes (403), and a malformed org_id (401)', async () => {
      const lone = await signTestJwt({ user_id: 'bob' });
      const refused = await as(lone).get('/v1/pipelex-api-keys').expect(403);
      expect(refused.body).to.deep.include({ error_type: 'OrganizationRequired', code: 'organization_required' });
      expect((await as(lone).get('/v1/auth/verify').expect(200)).body).to.deep.equal({ valid: true, org_id: null });
      const dotted = await signTestJwt({ user_id: 'bob', org_id: 'acme.corp' });
      const malformed = await as(dotted).get('/v1/me').expect(401);
      expect(malformed.body.detail).to.equal(
        "Invalid token: org_id claim holds U+002E at index 4; it must be one path-safe segment of 1 to 128 characters A-Z, a-z, 0-9, '_' or '-'.",
      );
    });
  });
});
