/**
 * The run history, the usage ledger and idempotency keys (docs/control-plane.md#run-history, docs/api.md#run-history,
 * docs/api.md#usage, docs/api.md#idempotency) on a queue deployment (real Redis, in-process workers, mock inference)
 * and a real PostgreSQL: each organization sees exactly its own runs, the cursor pages through each run once, the
 * filters are exact, a run's detail carries what was sent, and one `Idempotency-Key` makes one run.
 */
import { expect } from 'chai';
import request from 'supertest';
import { closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { FILING_BUNDLE, GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';

const ADMIN = 'history-admin-key';

interface Listed {
  pipeline_run_id: string;
  status: string;
  method_id: string | null;
  pipe_code: string | null;
  error: { error_type: string } | null;
}

describe('run history, usage and idempotency (queue mode, PostgreSQL)', function () {
  this.timeout(120_000);
  afterEach(closeControlPlaneApps);
  const suite = useTestControlPlane();
  let deployment: QueueDeployment;
  let acme: string;
  let globex: string;

  const as = (token: string) => ({
    get: (path: string) => request(deployment.app).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body: object, headers: Record<string, string> = {}) =>
      request(deployment.app).post(path).set('Authorization', `Bearer ${token}`).set(headers).send(body),
    put: (path: string, body: object) =>
      request(deployment.app).put(path).set('Authorization', `Bearer ${token}`).send(body),
  });

  async function keyOf(name: string): Promise<string> {
    const admin = as(ADMIN);
    const organization = (await admin.post('/v1/organizations', { name }).expect(201)).body.org_id as string;
    const issued = await admin.post('/v1/pipelex-api-keys', { label: 'ci', organization_id: organization }).expect(201);
    return issued.body.api_key as string;
  }

  async function listAll(token: string, query: string, limit: number): Promise<Listed[]> {
    const seen: Listed[] = [];
    let cursor: string | null = null;
    do {
      const page: request.Response = await as(token)
        .get(`/v1/runs?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        .expect(200);
      expect(Object.keys(page.body)).to.deep.equal(['items', 'next_cursor']);
      expect(page.body.items.length).to.be.at.most(limit);
      seen.push(...page.body.items);
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    return seen;
  }

  async function settled(token: string, count: number): Promise<Listed[]> {
    return pollUntil(
      () => listAll(token, '&state=COMPLETED,FAILED', 200),
      (runs) => runs.length === count,
      60_000,
    );
  }

  before(async () => {
    deployment = startQueueDeployment({
      environment: { AUTH_MODE: 'api_key', API_KEY: ADMIN },
      controlPlane: suite.database,
    });
    acme = await keyOf('Acme');
    globex = await keyOf('Globex');
  });
  after(() => deployment.close());

  it('should list exactly the caller’s runs, page through each once, and filter by state and pipe exactly', async () => {
    const started = { acme: [] as string[], globex: [] as string[] };
    for (let index = 0; index < 12; index += 1) {
      const failing = index % 4 === 0;
      const body = failing
        ? { mthds_contents: [FILING_BUNDLE], inputs: { name: `n${index}` } }
        : { mthds_contents: [GREETING_BUNDLE], pipe_code: 'greet_person', inputs: { name: `n${index}` } };
      const acked = await as(acme).post('/v1/start', body).expect(202);
      started.acme.push(acked.body.pipeline_run_id);
    }
    for (let index = 0; index < 5; index += 1) {
      const acked = await as(globex)
        .post('/v1/start', { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'g' } })
        .expect(202);
      started.globex.push(acked.body.pipeline_run_id);
    }
    const acmeRuns = await settled(acme, 12);
    const globexRuns = await settled(globex, 5);
    expect(acmeRuns.map((run) => run.pipeline_run_id).sort()).to.deep.equal([...started.acme].sort());
    expect(globexRuns.map((run) => run.pipeline_run_id).sort()).to.deep.equal([...started.globex].sort());

    const paged = await listAll(acme, '', 5);
    expect(paged.map((run) => run.pipeline_run_id))
      .to.have.members(started.acme)
      .and.have.lengthOf(12);
    const failed = await listAll(acme, '&state=FAILED', 50);
    expect(failed).to.have.lengthOf(3);
    expect(failed.every((run) => run.error?.error_type === 'PipeFeatureNotSupportedError')).to.equal(true);
    expect(await listAll(acme, '&error_type=PipeFeatureNotSupportedError', 50)).to.have.lengthOf(3);
    expect(await listAll(acme, '&pipe_code=greet_person', 50)).to.have.lengthOf(9);
    expect(await listAll(globex, '&state=FAILED', 50)).to.have.lengthOf(0);
  });

  it('should answer a run’s detail with what was sent, and another organization’s run as an unknown one', async () => {
    const body = { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } };
    const runId = (await as(acme).post('/v1/start', body).expect(202)).body.pipeline_run_id as string;
    const detail = await pollUntil(
      () => as(acme).get(`/v1/runs/${runId}`),
      (response) => response.body.status === 'COMPLETED',
    );
    expect(detail.body).to.deep.include({
      pipeline_run_id: runId,
      status: 'COMPLETED',
      pipe_code: null,
      method_id: null,
      method_version: null,
      attempts: 1,
      error: null,
      workflow_id: runId,
      result_url: null,
      pipe_statuses: {},
      mthds_contents: [GREETING_BUNDLE],
      inputs: { name: 'Ada' },
    });
    expect(detail.body.source_digest).to.match(/^[0-9a-f]{64}$/);
    expect(detail.body.usage).to.include({ calls: 1 });
    const hidden = await as(globex).get(`/v1/runs/${runId}`).expect(404);
    expect(hidden.body).to.include({ code: 'run_not_found', error_type: 'RunNotFoundError' });
    const updated = await as(acme)
      .put(`/v1/runs/${runId}`, { status: 'COMPLETED', result_url: 'https://example.com/r.json' })
      .expect(200);
    expect(updated.body.result_url).to.equal('https://example.com/r.json');
    await as(globex).put(`/v1/runs/${runId}`, { status: 'FAILED' }).expect(404);
  });

  it('should refuse a naive instant and a suffixed method id with 400, and a foreign cursor with 422', async () => {
    const naive = await as(acme).get('/v1/runs?created_from=2026-01-01T00:00:00').expect(400);
    expect(naive.body.error_type).to.equal('BadRequest');
    await as(acme).get('/v1/runs?method_id=mt_abc@3').expect(400);
    const cursor = await as(acme).get('/v1/runs?cursor=not-ours').expect(422);
    expect(cursor.body.detail).to.contain('query.cursor');
  });

  it('should report usage by model, pipe and day from the history', async () => {
    await settled(globex, 5);
    const byModel = await as(globex).get('/v1/usage?group_by=model').expect(200);
    expect(byModel.body.group_by).to.equal('model');
    expect(byModel.body.total).to.include({ runs: 5, calls: 5 });
    expect(byModel.body.groups).to.have.lengthOf(1);
    expect(byModel.body.groups[0]).to.include({ runs: 5, calls: 5 });
    const byPipe = await as(globex).get('/v1/usage?group_by=pipe').expect(200);
    expect(byPipe.body.groups.map((group: { key: string }) => group.key)).to.deep.equal(['greet_person']);
    const byDay = await as(globex).get('/v1/usage?group_by=day').expect(200);
    expect(byDay.body.groups).to.have.lengthOf(1);
    expect(byDay.body.groups[0].key).to.match(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('should make one run of concurrent starts with one Idempotency-Key, and refuse the key with another body', async () => {
    const body = { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'once' } };
    const headers = { 'Idempotency-Key': 'exec-1:node-1:0' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => as(acme).post('/v1/start', body, headers).expect(202)),
    );
    const ids = new Set(answers.map((answer) => answer.body.pipeline_run_id));
    expect(ids.size).to.equal(1);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).to.equal(1);
    expect(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true')).to.have.lengthOf(19);
    const reused = await as(acme)
      .post('/v1/start', { ...body, inputs: { name: 'other' } }, headers)
      .expect(409);
    expect(reused.body).to.include({ code: 'idempotency_key_reused', error_type: 'IdempotencyKeyReusedError' });
    const elsewhere = await as(globex).post('/v1/start', body, headers).expect(202);
    expect(elsewhere.body.pipeline_run_id).to.not.equal([...ids][0]);
  });
});
