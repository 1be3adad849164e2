/**
 * The methods catalog (docs/api.md#methods-catalog) on a real PostgreSQL, in process, `AUTH_MODE=api_key`: the hosted
 * wire shapes of create, read, rewrite, draft write, rename, delete, publish and versions; paging that returns every
 * method once; the `q` search; the compare-and-swap token; an erasure in progress; two organizations kept apart; an
 * invalid bundle refused with its verdict.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import type { ErasureScheduler } from '../../api/method-catalog.js';
import { AdvancingClock } from '../helpers/advancing-clock.js';
import {
  type Caller,
  callerOf,
  greetingBundle,
  INVALID_BUNDLE,
  methodNotFound,
  organizationKey,
  pinnedProblem,
  SIGNATURE_BUNDLE,
} from '../helpers/catalog-callers.js';
import { buildControlPlaneApp, closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { useTestControlPlane } from '../helpers/postgres.js';

/** The deployment's `API_KEY`: the bootstrap admin. */
const ADMIN = 'a-catalog-admin-key';
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const METHOD_ID = /^mt_[A-Za-z0-9_-]{16}$/;
const DIGEST = /^[0-9a-f]{64}$/;
const METHOD_KEYS = [
  'method_id',
  'org_id',
  'created_by_user_id',
  'name',
  'mthds',
  'python',
  'input_data',
  'description',
  'created_at',
  'updated_at',
  'draft_digest',
  'latest_version',
  'latest_published',
];

describe('Methods catalog (HTTP, AUTH_MODE=api_key, PostgreSQL)', function () {
  this.timeout(60_000);
  afterEach(closeControlPlaneApps);
  const suite = useTestControlPlane();
  let app: Express;
  let admin: Caller;
  let clock: AdvancingClock;
  /** Erasures the app asked for, held until a test releases them. */
  let held: (() => Promise<void>)[];
  const holdErasures: ErasureScheduler = (erase) => {
    held.push(erase);
  };
  const releaseErasures = () => Promise.all(held.splice(0).map((erase) => erase()));

  beforeEach(() => {
    held = [];
    clock = new AdvancingClock();
    app = buildControlPlaneApp(suite.database, { AUTH_MODE: 'api_key', API_KEY: ADMIN }, clock.now, {
      methodErasure: holdErasures,
    });
    admin = callerOf(app, ADMIN);
  });

  async function tenant(name: string): Promise<{ org: string; keyId: string; call: Caller }> {
    const { org, key, keyId } = await organizationKey(admin, name);
    return { org, keyId, call: callerOf(app, key) };
  }

  describe('when a method is created with an Idempotency-Key', () => {
    it('should store one method for the key, replay its answer, and refuse the key with another body', async () => {
      const { call } = await tenant('Retriers');
      const body = { name: 'Once', mthds: greetingBundle() };
      const keyed = (sent: object) => call.post('/v1/methods', sent).set('Idempotency-Key', 'create-once');
      const first = await keyed(body).expect(201);
      const again = await keyed(body).expect(201);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      expect(again.text).to.equal(first.text);
      const listed = await call.get('/v1/methods').expect(200);
      expect(listed.body.items.map((item: { method_id: string }) => item.method_id)).to.deep.equal([
        first.body.method_id,
      ]);
      const reused = await keyed({ ...body, name: 'Twice' }).expect(409);
      expect(reused.body).to.include({ error_type: 'IdempotencyKeyReusedError', code: 'idempotency_key_reused' });
    });
  });

  describe('when a method is created, read and written', () => {
    it('should answer the hosted MethodData, derive the description and move the token on draft writes only', async () => {
      const { org, keyId, call } = await tenant('Writers');
      const bundle = greetingBundle('Greets people');
      const created = await call.post('/v1/methods', { name: 'Greeter', mthds: bundle }).expect(201);
      expect(Object.keys(created.body)).to.deep.equal(METHOD_KEYS);
      const id = created.body.method_id as string;
      expect(id).to.match(METHOD_ID);
      expect(created.body.draft_digest).to.match(DIGEST);
      expect(created.body.created_at).to.match(ISO_TIME);
      expect(created.body).to.deep.equal({
        method_id: id,
        org_id: org,
        created_by_user_id: keyId,
        name: 'Greeter',
        mthds: bundle,
        python: '',
        input_data: null,
        description: 'Greets people',
        created_at: created.body.created_at,
        updated_at: created.body.created_at,
        draft_digest: created.body.draft_digest,
        latest_version: null,
        latest_published: null,
      });
      expect((await call.get(`/v1/methods/${id}`).expect(200)).body).to.deep.equal(created.body);

      const files = JSON.stringify([{ name: 'greet.mthds', content: greetingBundle('Greets anyone') }]);
      const rewritten = await call
        .put(`/v1/methods/${id}`, { name: 'Greeter 2', mthds: files, input_data: { name: 'Ada' } })
        .expect(200);
      expect(rewritten.body).to.deep.include({
        name: 'Greeter 2',
        mthds: files,
        description: 'Greets anyone',
        input_data: { name: 'Ada' },
        created_at: created.body.created_at,
      });
      expect(rewritten.body.updated_at).to.match(ISO_TIME).and.not.equal(created.body.updated_at);
      expect(rewritten.body.draft_digest).to.not.equal(created.body.draft_digest);

      const python = JSON.stringify([{ name: 'helpers.py', content: 'VALUE = 1\n' }]);
      const drafted = await call.put(`/v1/methods/${id}/draft`, { mthds: bundle, python }).expect(200);
      expect(drafted.body).to.deep.include({ name: 'Greeter 2', mthds: bundle, python, input_data: { name: 'Ada' } });
      expect(drafted.body.updated_at).to.not.equal(rewritten.body.updated_at);
      expect(drafted.body.draft_digest).to.not.equal(created.body.draft_digest);
      const cleared = await call.put(`/v1/methods/${id}/draft`, { mthds: bundle, python: '', input_data: null });
      expect(cleared.body).to.deep.include({ python: '', input_data: null, draft_digest: created.body.draft_digest });

      const renamed = await call.patch(`/v1/methods/${id}`, { name: 'Hello' }).expect(200);
      expect(renamed.body).to.deep.equal({ ...cleared.body, name: 'Hello' });
    });

    it('should refuse an invalid bundle with 422 InvalidMethodError carrying the verdict, and write nothing', async () => {
      const { call } = await tenant('Invalid');
      const refused = await call.post('/v1/methods', { name: 'Broken', mthds: INVALID_BUNDLE }).expect(422);
      expect(refused.headers['content-type']).to.equal('application/problem+json');
      const message =
        "main_pipe 'missing' is not a pipe of this bundle (its pipes: none); define [pipe.missing] here or fix the name.";
      const item = {
        category: 'blueprint_validation',
        message,
        error_type: 'unresolved_pipe_dependency',
        source: null,
        domain_code: 'broken',
        field_path: 'main_pipe',
        field_name: 'main_pipe',
        missing_pipe_code: 'missing',
      };
      expect(pinnedProblem(refused.body)).to.deep.equal({
        type: '/errors/invalid-method-error/',
        title: 'Invalid method',
        status: 422,
        detail: `The method's bundle does not validate: Validation error(s): ${message}`,
        error_type: 'InvalidMethodError',
        code: 'method_invalid',
        error_domain: 'input',
        retryable: false,
        user_action: { kind: 'change_input', detail: 'Fix the bundle: validation_errors says what is wrong and where' },
        validation_errors: [item],
        validation: {
          is_valid: false,
          validation_errors: [item],
          pending_signatures: [],
          is_runnable: false,
          message: `Validation error(s): ${message}`,
        },
      });
      expect((await call.get('/v1/methods').expect(200)).body).to.deep.equal({ items: [], next_cursor: null });

      const created = await call.post('/v1/methods', { name: 'Fine', mthds: greetingBundle() }).expect(201);
      const id = created.body.method_id as string;
      const draft = await call.put(`/v1/methods/${id}/draft`, { mthds: INVALID_BUNDLE }).expect(422);
      expect(draft.body.code).to.equal('method_invalid');
      expect(draft.body.validation_errors[0].source).to.equal(id);
      expect((await call.get(`/v1/methods/${id}`).expect(200)).body).to.deep.equal(created.body);
    });

    it('should refuse bodies and ids outside their bounds with 422', async () => {
      const { call } = await tenant('Bounds');
      const cases: [object, string][] = [
        [{ name: '', mthds: greetingBundle() }, 'body.name: Too small: expected string to have >=1 characters'],
        [
          { name: 'x'.repeat(201), mthds: greetingBundle() },
          'body.name: Too big: expected string to have <=200 characters',
        ],
        [{ name: 'Empty', mthds: '[]' }, 'body.mthds: holds no .mthds text'],
        [
          { name: 'Python', mthds: greetingBundle(), python: 'print(1)' },
          'body.python: must be "" (none) or the JSON text of [{name, content}]',
        ],
      ];
      for (const [body, detail] of cases) {
        const refused = await call.post('/v1/methods', body).expect(422);
        expect(refused.body).to.include({ error_type: 'ValidationError', detail });
      }
      const created = await call.post('/v1/methods', { name: 'Suffix', mthds: greetingBundle() }).expect(201);
      const id = created.body.method_id as string;
      const suffixed = await call.get(`/v1/methods/${id}@draft`).expect(422);
      expect(suffixed.body).to.include({
        error_type: 'ValidationError',
        detail: `path.methodId: '${id}@draft' carries a version suffix; the method routes take the bare id '${id}' (a suffix selects content on the run and tooling routes only: docs/methods.md#method_id)`,
      });
      await call.get(`/v1/methods/${id}@2/versions`).expect(422);
    });
  });

  describe('when the catalog is listed', () => {
    it('should page newest first, each method once, with an opaque cursor', async () => {
      const { call } = await tenant('Pages');
      const ids: string[] = [];
      for (let index = 0; index < 7; index += 1) {
        const created = await call.post('/v1/methods', { name: `m${index}`, mthds: greetingBundle() }).expect(201);
        ids.push(created.body.method_id as string);
        clock.advance(1000);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor === null ? '?limit=3' : `?limit=3&cursor=${encodeURIComponent(cursor)}`;
        const page = await call.get(`/v1/methods${query}`).expect(200);
        expect(Object.keys(page.body)).to.deep.equal(['items', 'next_cursor']);
        for (const item of page.body.items) {
          expect(Object.keys(item)).to.deep.equal(['method_id', 'name', 'description', 'created_at']);
          seen.push(item.method_id as string);
        }
        cursor = page.body.next_cursor as string | null;
        pages += 1;
      } while (cursor !== null);
      expect(pages).to.equal(3);
      expect(seen).to.deep.equal([...ids].reverse());
      const first = await call.get('/v1/methods').expect(200);
      expect(first.body.items[0]).to.deep.equal({
        method_id: ids[6],
        name: 'm6',
        description: 'Greets someone by name',
        created_at: first.body.items[0].created_at,
      });
      const refused = await call.get('/v1/methods?cursor=not-a-cursor').expect(422);
      expect(refused.body.detail).to.equal(
        'query.cursor: not a cursor of this list; pass next_cursor as it was answered',
      );
      await call.get('/v1/methods?limit=201').expect(422);
      await call.get('/v1/methods?limit=0').expect(422);
    });

    it('should keep methods created in the same millisecond apart by id, each once', async () => {
      const frozen = Date.now();
      const sameTime = buildControlPlaneApp(suite.database, { AUTH_MODE: 'api_key', API_KEY: ADMIN }, () => frozen);
      const { key } = await organizationKey(callerOf(sameTime, ADMIN), 'Same time');
      const call = callerOf(sameTime, key);
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1)
        ids.push(
          (await call.post('/v1/methods', { name: `t${index}`, mthds: greetingBundle() }).expect(201)).body.method_id,
        );
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${encodeURIComponent(cursor)}`;
        const page = await call.get(`/v1/methods${query}`).expect(200);
        seen.push(...page.body.items.map((item: { method_id: string }) => item.method_id));
        cursor = page.body.next_cursor as string | null;
      } while (cursor !== null);
      // ties on created_at are ordered by id under the database's collation: each once is what matters
      expect(seen).to.have.lengthOf(5);
      expect([...seen].sort()).to.deep.equal([...ids].sort());
    });

    it('should search names and descriptions case-insensitively, `%` and `_` taken literally', async () => {
      const { call } = await tenant('Search');
      const make = async (name: string, description: string) =>
        (await call.post('/v1/methods', { name, mthds: greetingBundle(description) }).expect(201)).body
          .method_id as string;
      const invoices = await make('Invoice reader', 'Reads invoices');
      const discount = await make('Discounts', 'Applies a 10% discount');
      const snake = await make('snake_case tool', 'Renames things');
      await make('Other', 'Nothing alike');
      const found = async (q: string) =>
        ((await call.get(`/v1/methods?q=${encodeURIComponent(q)}`).expect(200)).body.items as { method_id: string }[])
          .map((item) => item.method_id)
          .sort();
      expect(await found('INVOICE')).to.deep.equal([invoices]);
      expect(await found('reads inv')).to.deep.equal([invoices]);
      expect(await found('10%')).to.deep.equal([discount]);
      expect(await found('%')).to.deep.equal([discount]);
      expect(await found('e_c')).to.deep.equal([snake]);
      expect(await found('_')).to.deep.equal([snake]);
      expect(await found('nowhere')).to.deep.equal([]);
    });
  });

  describe('when a write names the token it read (compare-and-swap)', () => {
    it('should write with the current token and refuse a stale one with 409 method_update_conflict', async () => {
      const { call } = await tenant('Tokens');
      const created = await call.post('/v1/methods', { name: 'Cas', mthds: greetingBundle() }).expect(201);
      const id = created.body.method_id as string;
      const first = await call
        .put(`/v1/methods/${id}/draft`, { mthds: greetingBundle('One'), expected_updated_at: created.body.updated_at })
        .expect(200);
      const stale = await call
        .put(`/v1/methods/${id}/draft`, { mthds: greetingBundle('Two'), expected_updated_at: created.body.updated_at })
        .expect(409);
      expect(pinnedProblem(stale.body)).to.deep.equal({
        type: '/errors/method-update-conflict-error/',
        title: 'Method update conflict',
        status: 409,
        detail: `Method '${id}' was written at ${first.body.updated_at}, after the expected_updated_at ${created.body.updated_at}: read it again, then write.`,
        error_type: 'MethodUpdateConflictError',
        code: 'method_update_conflict',
        error_domain: 'input',
        retryable: false,
      });
      const whole = await call
        .put(`/v1/methods/${id}`, {
          name: 'Cas',
          mthds: greetingBundle('Two'),
          expected_updated_at: created.body.updated_at,
        })
        .expect(409);
      expect(whole.body.code).to.equal('method_update_conflict');
      expect((await call.get(`/v1/methods/${id}`).expect(200)).body).to.deep.equal(first.body);
      await call
        .put(`/v1/methods/${id}`, {
          name: 'Cas',
          mthds: greetingBundle('Two'),
          expected_updated_at: first.body.updated_at,
        })
        .expect(200);
    });
  });

  describe('when a method is deleted', () => {
    it('should answer 202, refuse it with 409 while the erasure runs, then forget it', async () => {
      const { call } = await tenant('Erasure');
      const created = await call.post('/v1/methods', { name: 'Doomed', mthds: greetingBundle() }).expect(201);
      const id = created.body.method_id as string;
      await call.post(`/v1/methods/${id}/publish`, {}).expect(200);
      const accepted = await call.delete(`/v1/methods/${id}`).expect(202);
      expect(Object.keys(accepted.body)).to.deep.equal(['method_id', 'deletion_state', 'deletion_job_id']);
      expect(accepted.body).to.deep.include({ method_id: id, deletion_state: 'pending' });
      expect(accepted.body.deletion_job_id).to.match(/^del_[A-Za-z0-9_-]{16}$/);

      const beingDeleted = {
        type: '/errors/method-being-deleted-error/',
        title: 'Method being deleted',
        status: 409,
        detail: `Method '${id}' is being deleted.`,
        error_type: 'MethodBeingDeletedError',
        code: 'method_being_deleted',
        error_domain: 'input',
        retryable: false,
      };
      expect(pinnedProblem((await call.delete(`/v1/methods/${id}`).expect(409)).body)).to.deep.equal(beingDeleted);
      expect(pinnedProblem((await call.get(`/v1/methods/${id}`).expect(409)).body)).to.deep.equal(beingDeleted);
      await call.put(`/v1/methods/${id}/draft`, { mthds: greetingBundle() }).expect(409);
      await call.patch(`/v1/methods/${id}`, { name: 'Saved?' }).expect(409);
      await call.post(`/v1/methods/${id}/publish`, {}).expect(409);
      await call.get(`/v1/methods/${id}/versions`).expect(409);
      const runRefused = await call.post('/v1/execute', { method_id: id, inputs: { name: 'Ada' } }).expect(409);
      expect(runRefused.body.code).to.equal('method_being_deleted');
      const listed = await call.get('/v1/methods').expect(200);
      expect(listed.body.items).to.deep.equal([
        {
          method_id: id,
          name: 'Doomed',
          description: 'Greets someone by name',
          created_at: created.body.created_at,
          deletion_state: 'pending',
        },
      ]);

      await releaseErasures();
      expect(pinnedProblem((await call.get(`/v1/methods/${id}`).expect(404)).body)).to.deep.equal(methodNotFound(id));
      expect(pinnedProblem((await call.delete(`/v1/methods/${id}`).expect(404)).body)).to.deep.equal(
        methodNotFound(id),
      );
      expect((await call.get('/v1/methods').expect(200)).body).to.deep.equal({ items: [], next_cursor: null });
      const versions = await suite.database.db
        .selectFrom('method_versions')
        .select('version')
        .where('method_id', '=', id)
        .execute();
      expect(versions).to.deep.equal([]);
    });
  });

  describe('when a draft is published', () => {
    it('should number versions from 1, answer unchanged for the same draft, and serve each version', async () => {
      const { keyId, call } = await tenant('Publishers');
      const created = await call.post('/v1/methods', { name: 'Pub', mthds: greetingBundle('First') }).expect(201);
      const id = created.body.method_id as string;
      const published = await call
        .post(`/v1/methods/${id}/publish`, { expected_draft_updated_at: created.body.updated_at })
        .expect(200);
      expect(Object.keys(published.body)).to.deep.equal(['outcome', 'version', 'method']);
      const v1 = published.body.version;
      expect(Object.keys(v1)).to.deep.equal([
        'version',
        'source_digest',
        'crate_fingerprint',
        'runner_version',
        'description',
        'published_at',
        'published_by',
      ]);
      expect(v1).to.deep.include({
        version: 1,
        source_digest: created.body.draft_digest,
        runner_version: '0.1.0',
        description: 'First',
        published_by: keyId,
      });
      expect(v1.crate_fingerprint).to.be.a('string').and.not.equal('');
      expect(v1.published_at).to.match(ISO_TIME);
      expect(published.body).to.deep.equal({
        outcome: 'published',
        version: v1,
        method: { ...created.body, latest_version: 1, latest_published: v1 },
      });
      const resolved = await call
        .post('/v1/resolve', { files: [{ content: greetingBundle('First'), source: 'greet.mthds' }] })
        .expect(200);
      expect(v1.crate_fingerprint).to.equal(resolved.body.crate.fingerprint);

      const again = await call.post(`/v1/methods/${id}/publish`, {}).expect(200);
      expect(again.body).to.deep.equal({ ...published.body, outcome: 'unchanged' });

      const written = await call.put(`/v1/methods/${id}/draft`, { mthds: greetingBundle('Second') }).expect(200);
      expect(written.body).to.deep.include({ latest_version: 1, latest_published: v1 });
      const stale = await call
        .post(`/v1/methods/${id}/publish`, { expected_draft_updated_at: created.body.updated_at })
        .expect(409);
      expect(stale.body.code).to.equal('method_update_conflict');
      const second = await call
        .post(`/v1/methods/${id}/publish`, { expected_draft_updated_at: written.body.updated_at })
        .expect(200);
      expect(second.body).to.deep.include({ outcome: 'published' });
      expect(second.body.version).to.deep.include({ version: 2, description: 'Second' });

      const listed = await call.get(`/v1/methods/${id}/versions?limit=1`).expect(200);
      expect(listed.body.items).to.deep.equal([second.body.version]);
      const rest = await call
        .get(`/v1/methods/${id}/versions?cursor=${encodeURIComponent(listed.body.next_cursor)}`)
        .expect(200);
      expect(rest.body).to.deep.equal({ items: [v1], next_cursor: null });

      const version1 = await call.get(`/v1/methods/${id}/versions/1`).expect(200);
      expect(version1.body).to.deep.equal({ ...v1, method_id: id, mthds: greetingBundle('First'), python: '' });
      const missing = await call.get(`/v1/methods/${id}/versions/9`).expect(404);
      expect(pinnedProblem(missing.body)).to.deep.equal({
        type: '/errors/method-version-not-found-error/',
        title: 'Method version not found',
        status: 404,
        detail: `Method '${id}' has no published version 9.`,
        error_type: 'MethodVersionNotFoundError',
        code: 'method_version_not_found',
        error_domain: 'input',
        retryable: false,
      });
      await call.get(`/v1/methods/${id}/versions/zero`).expect(422);
    });

    it('should refuse to publish a draft that validates but does not run, with its verdict', async () => {
      const { call } = await tenant('Signatures');
      const created = await call.post('/v1/methods', { name: 'Unfinished', mthds: SIGNATURE_BUNDLE }).expect(201);
      const id = created.body.method_id as string;
      const refused = await call.post(`/v1/methods/${id}/publish`, {}).expect(200);
      expect(Object.keys(refused.body)).to.deep.equal(['outcome', 'reason', 'message', 'validation', 'method']);
      expect(refused.body).to.deep.include({
        outcome: 'refused',
        reason: 'not_runnable',
        message: `The draft of '${id}' is valid but does not run yet: pipes notes.shorten are signatures only.`,
        method: created.body,
      });
      expect(refused.body.validation).to.deep.include({
        is_valid: true,
        is_runnable: false,
        pending_signatures: ['notes.shorten'],
      });
      expect((await call.get(`/v1/methods/${id}/versions`).expect(200)).body).to.deep.equal({
        items: [],
        next_cursor: null,
      });
    });
  });

  describe('when two organizations share the deployment', () => {
    it('should answer another organization’s method exactly as an unknown id, on every route', async () => {
      const alpha = await tenant('Alpha');
      const beta = await tenant('Beta');
      const created = await alpha.call.post('/v1/methods', { name: 'Secret', mthds: greetingBundle() }).expect(201);
      const id = created.body.method_id as string;
      const unknown = 'mt_AAAAAAAAAAAAAAAA';
      const routes: [string, (call: Caller, target: string) => Promise<{ status: number; body: unknown }>][] = [
        ['GET', (call, target) => call.get(`/v1/methods/${target}`)],
        ['PUT', (call, target) => call.put(`/v1/methods/${target}`, { name: 'x', mthds: greetingBundle() })],
        ['PUT draft', (call, target) => call.put(`/v1/methods/${target}/draft`, { mthds: greetingBundle() })],
        ['PATCH', (call, target) => call.patch(`/v1/methods/${target}`, { name: 'x' })],
        ['DELETE', (call, target) => call.delete(`/v1/methods/${target}`)],
        ['publish', (call, target) => call.post(`/v1/methods/${target}/publish`, {})],
        ['versions', (call, target) => call.get(`/v1/methods/${target}/versions`)],
        ['version', (call, target) => call.get(`/v1/methods/${target}/versions/1`)],
      ];
      for (const [route, send] of routes) {
        const foreign = await send(beta.call, id);
        const missing = await send(beta.call, unknown);
        expect(foreign.status, route).to.equal(404);
        expect(pinnedProblem(foreign.body as Record<string, unknown>), route).to.deep.equal(methodNotFound(id));
        expect(pinnedProblem(missing.body as Record<string, unknown>), route).to.deep.equal(methodNotFound(unknown));
      }
      expect((await beta.call.get('/v1/methods').expect(200)).body).to.deep.equal({ items: [], next_cursor: null });
      const mine = await alpha.call.get('/v1/methods').expect(200);
      expect(mine.body.items.map((item: { method_id: string }) => item.method_id)).to.deep.equal([id]);
      expect((await alpha.call.get(`/v1/methods/${id}`).expect(200)).body).to.deep.equal(created.body);
      const ownedByAdmin = await admin.get('/v1/methods').expect(200);
      expect(ownedByAdmin.body.items).to.deep.equal([]);
    });
  });

  describe('when the version handshake is asked', () => {
    it('should list the catalog extensions', async () => {
      const version = await admin.get('/v1/version').expect(200);
      expect(version.body.extensions).to.deep.equal(['api_keys', 'methods', 'method_versions', 'runs', 'usage']);
    });
  });
});
