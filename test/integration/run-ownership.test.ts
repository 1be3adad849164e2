import { expect } from 'chai';
import request from 'supertest';
import { sample } from '../helpers/corpus.js';
import { TEST_JWT_SECRET as JWT_SECRET, signTestJwt as signJwt } from '../helpers/jwt.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const hello = { mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' } };

/** A response as the wire shows it, minus the one header that varies on its own (`date`). */
function wire(response: request.Response): { status: number; headers: Record<string, unknown>; body: unknown } {
  const { date: _date, ...headers } = response.headers;
  return { status: response.status, headers, body: response.body };
}

describe('run ownership (AUTH_MODE=jwt, queue mode, real Redis)', function () {
  this.timeout(30000);
  let deployment: QueueDeployment;
  let alice: string;
  let bob: string;

  const as = (token: string) => ({
    start: (body: object) =>
      request(deployment.app).post('/v1/start').set('Authorization', `Bearer ${token}`).send(body),
    execute: (body: object) =>
      request(deployment.app).post('/v1/execute').set('Authorization', `Bearer ${token}`).send(body),
    read: (runId: string, what: 'status' | 'results', requestId = 'probe-request') =>
      request(deployment.app)
        .get(`/v1/runs/${runId}/${what}`)
        .set('Authorization', `Bearer ${token}`)
        .set('X-Request-ID', requestId),
  });
  /** Wait until a run is finished and its job has ended, so the worker has freed its id (spec §3 rule 2). */
  const finished = async (token: string, runId: string) => {
    await pollUntil(
      () =>
        as(token)
          .read(runId, 'status')
          .then((response) => response.body as { status?: string }),
      (body) => body.status === 'COMPLETED' || body.status === 'FAILED',
    );
    await pollUntil(
      () => deployment.backend.runQueue.counts(),
      (counts) =>
        counts['waiting'] === 0 && counts['prioritized'] === 0 && counts['active'] === 0 && counts['delayed'] === 0,
    );
  };
  /**
   * Open a deployment whose completion listener is already consuming: the first blocking execute on a fresh
   * `RunQueue` can otherwise miss its job's completion event (its QueueEvents starts reading the stream late).
   */
  const open = async (environment: Record<string, string>) => {
    deployment = startQueueDeployment({ environment });
    await deployment.backend.runQueue.waitUntilFinished('no-such-job', 1);
  };

  before(async () => {
    alice = await signJwt({ user_id: 'alice' });
    bob = await signJwt({ user_id: 'bob' });
  });

  afterEach(async () => {
    await deployment.close();
  });

  describe('when another caller reads or reuses a run id', () => {
    beforeEach(() => open({ AUTH_MODE: 'jwt', JWT_SECRET_KEY: JWT_SECRET, MOCK_INFERENCE_LATENCY_MS: '1000' }));

    it("should answer every run route as for an unknown id, refuse the id with 409, and leave the owner's run untouched", async () => {
      const unknownStatus = await as(bob).read('alice-run', 'status').expect(404);
      const unknownResults = await as(bob).read('alice-run', 'results').expect(404);
      expect(unknownStatus.body).to.deep.equal({
        type: `${deployment.settings.errorDocsUrl}/errors/run-not-found-error/`,
        title: 'Run not found',
        status: 404,
        detail: "No run 'alice-run' is known (runs are kept RUN_RECORD_TTL_SECONDS after they finish).",
        instance: '/v1/runs/alice-run/status',
        request_id: 'probe-request',
        error_type: 'RunNotFoundError',
        error_domain: 'input',
        retryable: false,
        code: 'run_not_found',
      });

      await as(alice)
        .start({ ...hello, pipeline_run_id: 'alice-run' })
        .expect(202);
      expect(wire(await as(bob).read('alice-run', 'status'))).to.deep.equal(wire(unknownStatus));
      expect(wire(await as(bob).read('alice-run', 'results'))).to.deep.equal(wire(unknownResults));
      const takenInFlight = await as(bob)
        .start({ ...hello, pipeline_run_id: 'alice-run' })
        .set('X-Request-ID', 'reuse-request')
        .expect(409);
      const inFlight = await as(alice).read('alice-run', 'status').expect(200);
      expect(['PENDING', 'RUNNING']).to.include(inFlight.body.status);
      expect(takenInFlight.body).to.deep.equal({
        type: `${deployment.settings.errorDocsUrl}/errors/pipeline-run-id-taken-error/`,
        title: 'Pipeline run id taken',
        status: 409,
        detail: "pipeline_run_id 'alice-run' is held by another caller's run; use another id.",
        instance: '/v1/start',
        request_id: 'reuse-request',
        error_type: 'PipelineRunIdTakenError',
        error_domain: 'input',
        retryable: false,
        code: 'run_id_taken',
      });

      await finished(alice, 'alice-run');
      const results = await as(alice).read('alice-run', 'results').expect(200);
      expect(results.body.main_stuff.text).to.include('Ada');
      expect(wire(await as(bob).read('alice-run', 'status'))).to.deep.equal(wire(unknownStatus));
      expect(wire(await as(bob).read('alice-run', 'results'))).to.deep.equal(wire(unknownResults));
      const takenFinished = await as(bob)
        .start({ ...hello, inputs: { name: 'Mallory' }, pipeline_run_id: 'alice-run' })
        .set('X-Request-ID', 'reuse-request')
        .expect(409);
      expect(wire(takenFinished)).to.deep.equal(wire(takenInFlight));
      const executed = await as(bob)
        .execute({ ...hello, inputs: { name: 'Mallory' }, pipeline_run_id: 'alice-run' })
        .expect(200);
      expect(executed.body.pipeline_run_id).to.not.equal('alice-run');
      expect(wire(await as(bob).read(executed.body.pipeline_run_id, 'status')).status).to.equal(200);
      expect(wire(await as(alice).read(executed.body.pipeline_run_id, 'status')).status).to.equal(404);

      expect((await as(alice).read('alice-run', 'results').expect(200)).body).to.deep.equal(results.body);
      expect(await deployment.backend.registry.get('alice-run')).to.include({ owner: 'alice', storage_scope: 'alice' });
    });

    it('should let the owner reuse its own finished id, and refuse it with the in-flight 409 while it runs', async () => {
      await as(alice)
        .start({ ...hello, pipeline_run_id: 'again' })
        .expect(202);
      await finished(alice, 'again');
      await as(alice)
        .start({ ...hello, inputs: { name: 'Grace' }, pipeline_run_id: 'again' })
        .expect(202);
      const busy = await as(alice)
        .start({ ...hello, pipeline_run_id: 'again' })
        .expect(409);
      expect(busy.body).to.include({ error_type: 'PipelineManagerAlreadyExistsError', code: 'run_id_in_flight' });
      await pollUntil(
        () =>
          as(alice)
            .read('again', 'results')
            .then((response) => response.status),
        (status) => status === 200,
      );
      expect((await as(alice).read('again', 'results')).body.main_stuff.text).to.include('Grace');
      await as(bob)
        .start({ ...hello, pipeline_run_id: 'again' })
        .expect(409);
    });

    it('should give a contested fresh id to exactly one of two simultaneous callers', async () => {
      const answers = await Promise.all([
        as(alice).start({ ...hello, pipeline_run_id: 'contested' }),
        as(bob).start({ ...hello, pipeline_run_id: 'contested' }),
      ]);
      expect(answers.map((response) => response.status).sort()).to.deep.equal([202, 409]);
      const winner = answers[0]!.status === 202 ? alice : bob;
      const loser = winner === alice ? bob : alice;
      await as(winner).read('contested', 'status').expect(200);
      await as(loser).read('contested', 'status').expect(404);
    });

    it('should free an id whose start was refused before anything was enqueued', async () => {
      await as(alice)
        .start({ mthds_contents: [sample('invalid/missing_pipe_ref')], pipeline_run_id: 'never-ran' })
        .expect(422);
      await as(bob)
        .start({ ...hello, pipeline_run_id: 'never-ran' })
        .expect(202);
      await as(bob).read('never-ran', 'status').expect(200);
      await as(alice).read('never-ran', 'status').expect(404);
    });
  });

  describe('when a jwt caller names a storage_scope', () => {
    beforeEach(() => open({ AUTH_MODE: 'jwt', JWT_SECRET_KEY: JWT_SECRET }));

    it("should accept a scope under its own id and refuse another caller's with the exact 403 problem", async () => {
      await as(alice)
        .start({ ...hello, pipeline_run_id: 'scoped', storage_scope: 'alice/x' })
        .expect(202);
      expect(await deployment.backend.registry.get('scoped')).to.include({ owner: 'alice', storage_scope: 'alice/x' });
      const refused = await as(alice)
        .start({ ...hello, pipeline_run_id: 'foreign', storage_scope: 'bob/x' })
        .set('X-Request-ID', 'scope-request')
        .expect(403);
      expect(refused.headers['content-type']).to.equal('application/problem+json');
      expect(refused.body).to.deep.equal({
        type: `${deployment.settings.errorDocsUrl}/errors/storage-ownership-mismatch-error/`,
        title: 'Storage ownership mismatch',
        status: 403,
        detail:
          "storage_scope 'bob/x' is not yours: its first segment must be your own user id, or the scope must lie under one your token's storage_scopes claim grants.",
        instance: '/v1/start',
        request_id: 'scope-request',
        error_type: 'StorageOwnershipMismatchError',
        error_domain: 'input',
        retryable: false,
        code: 'storage_ownership_mismatch',
      });
      await as(alice).read('foreign', 'status').expect(404);
      const onExecute = await as(alice)
        .execute({ ...hello, storage_scope: 'bob/x' })
        .expect(403);
      expect(onExecute.body).to.include({ error_type: 'StorageOwnershipMismatchError', instance: '/v1/execute' });
      await as(alice)
        .execute({ ...hello, storage_scope: 'alice' })
        .expect(200);
    });

    it('should honour the prefixes of the storage_scopes claim, segment by segment', async () => {
      const granted = await signJwt({ user_id: 'carol', storage_scopes: ['acme/team-1'] });
      await as(granted)
        .start({ ...hello, storage_scope: 'acme/team-1/reports' })
        .expect(202);
      await as(granted)
        .start({ ...hello, storage_scope: 'acme/team-1' })
        .expect(202);
      await as(granted)
        .start({ ...hello, storage_scope: 'acme/team-10' })
        .expect(403);
      await as(granted)
        .start({ ...hello, storage_scope: 'acme' })
        .expect(403);
      await as(granted)
        .start({ ...hello, storage_scope: 'carol/own' })
        .expect(202);
    });

    it('should refuse a token whose storage_scopes claim is malformed with 401', async () => {
      for (const claim of ['acme/team-1', ['../etc'], [42]]) {
        const token = await signJwt({ user_id: 'carol', storage_scopes: claim });
        const response = await as(token).start(hello).expect(401);
        expect(response.body).to.include({
          error_type: 'Unauthenticated',
          detail:
            'Invalid token: storage_scopes claim must be a list of at most 64 storage scopes (1 to 3 path-safe segments each).',
        });
      }
    });
  });

  describe('when AUTH_MODE=api_key', () => {
    const API_KEY = 'an-api-key-of-reasonable-length';

    beforeEach(() => open({ AUTH_MODE: 'api_key', API_KEY }));

    it('should keep one deployment principal: any scope, every run visible, finished ids reusable', async () => {
      await as(API_KEY)
        .start({ ...hello, pipeline_run_id: 'shared', storage_scope: 'tenant-a/x' })
        .expect(202);
      await finished(API_KEY, 'shared');
      expect(await deployment.backend.registry.get('shared')).to.include({
        owner: 'single-tenant',
        storage_scope: 'tenant-a/x',
      });
      await as(API_KEY).read('shared', 'results').expect(200);
      await as(API_KEY)
        .start({ ...hello, pipeline_run_id: 'shared', storage_scope: 'tenant-b' })
        .expect(202);
      await as(API_KEY)
        .execute({ ...hello, storage_scope: 'tenant-c/y/z' })
        .expect(200);
    });
  });
});

describe('storage_scope ownership on the direct orchestrator (AUTH_MODE=jwt)', () => {
  const app = buildTestApp({ AUTH_MODE: 'jwt', JWT_SECRET_KEY: JWT_SECRET });

  it('should refuse a foreign scope with 403 and run an own one', async () => {
    const token = await signJwt({ user_id: 'alice' });
    const refused = await request(app)
      .post('/v1/execute')
      .set('Authorization', `Bearer ${token}`)
      .send({ ...hello, storage_scope: 'bob' })
      .expect(403);
    expect(refused.body).to.include({
      error_type: 'StorageOwnershipMismatchError',
      status: 403,
      code: 'storage_ownership_mismatch',
    });
    const ran = await request(app)
      .post('/v1/execute')
      .set('Authorization', `Bearer ${token}`)
      .send({ ...hello, storage_scope: 'alice/x' })
      .expect(200);
    expect(ran.body.state).to.equal('COMPLETED');
  });
});
