/**
 * The control plane at scale (docs/control-plane.md#run-history, docs/api.md#idempotency): two spawned API processes
 * and two spawned workers on one Redis and one PostgreSQL database of the test's own, two organizations with two API
 * keys each, 1,000 runs. Each organization lists exactly its own runs; paging with the cursor returns every run once;
 * the state and method filters are exact; 100 concurrent duplicates of one `Idempotency-Key`, spread over both API
 * processes, make one run and 100 identical answers.
 */
import { expect } from 'chai';
import pLimit from 'p-limit';
import { QUEUE_CONFIG_DIR } from '../helpers/config-dir.js';
import { FILING_BUNDLE, GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, uniquePrefix } from '../helpers/redis.js';

const ADMIN = 'scale-admin-key';
/** Runs per organization; every tenth fails (a pipe no runtime registers). */
const RUNS_PER_ORGANIZATION = 500;
/** Of them, runs linked to the organization's stored method. */
const METHOD_RUNS = 100;

interface Answer {
  status: number;
  text: string;
  body: Record<string, unknown>;
}

async function call(base: string, token: string, method: string, path: string, body?: unknown, key?: string) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> } satisfies Answer;
}

describe('the control plane at scale (two APIs, two workers, PostgreSQL, real Redis)', function () {
  this.timeout(600_000);
  const started: ServiceProcess[] = [];
  const prefix = uniquePrefix();
  let database: TestDatabase;
  let apis: string[];

  before(async () => {
    database = await createTestDatabase();
    const environment = {
      ...TEST_REDIS_ENVIRONMENT,
      QUEUE_PREFIX: prefix,
      SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR,
      DATABASE_URL: database.url,
      AUTH_MODE: 'api_key',
      API_KEY: ADMIN,
    };
    const spawned = await Promise.all([spawnApi(environment), spawnApi(environment)]);
    started.push(...spawned.map((one) => one.api));
    apis = spawned.map((one) => one.baseUrl);
    for (let index = 0; index < 2; index += 1) {
      const worker = spawnService('worker', environment);
      started.push(worker);
      await worker.waitForLog((line) => line['msg'] === 'worker started');
    }
    await Promise.all(
      apis.map((base) =>
        pollUntil(
          () => fetch(`${base}/ready`).then((response) => response.status),
          (status) => status === 200,
          60_000,
        ),
      ),
    );
  });

  after(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop('SIGTERM')));
    await deletePrefix(prefix).catch(() => undefined);
    await database?.drop();
  });

  async function organization(name: string): Promise<string[]> {
    const created = await call(apis[0]!, ADMIN, 'POST', '/v1/organizations', { name });
    const org = created.body['org_id'] as string;
    const keys: string[] = [];
    for (const label of ['first', 'second']) {
      const issued = await call(apis[1]!, ADMIN, 'POST', '/v1/pipelex-api-keys', { label, organization_id: org });
      keys.push(issued.body['api_key'] as string);
    }
    return keys;
  }

  async function everyRun(token: string, query: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page === 0 || cursor !== null; page += 1) {
      const path: string = `/v1/runs?limit=200${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const answer = await call(apis[page % 2]!, token, 'GET', path);
      expect(answer.status).to.equal(200);
      ids.push(...(answer.body['items'] as { pipeline_run_id: string }[]).map((item) => item.pipeline_run_id));
      cursor = answer.body['next_cursor'] as string | null;
    }
    return ids;
  }

  it('should keep 1,000 runs of two organizations apart, page each once and filter exactly', async () => {
    const tenants = await Promise.all([organization('Acme'), organization('Globex')]);
    const limit = pLimit(20);
    const expected = tenants.map(() => ({ all: [] as string[], failed: [] as string[], method: [] as string[] }));
    await Promise.all(
      tenants.map(async (keys, tenant) => {
        const stored = await call(apis[tenant]!, keys[0]!, 'POST', '/v1/methods', {
          name: 'Greeter',
          mthds: GREETING_BUNDLE,
        });
        expect(stored.status).to.equal(201);
        const methodId = stored.body['method_id'] as string;
        await Promise.all(
          Array.from({ length: RUNS_PER_ORGANIZATION }, (_, index) =>
            limit(async () => {
              const failing = index % 10 === 9;
              const linked = index < METHOD_RUNS;
              const body = {
                mthds_contents: [failing ? FILING_BUNDLE : GREETING_BUNDLE],
                inputs: { name: `n${index}` },
                ...(linked ? { method_id: methodId } : {}),
              };
              const answer = await call(apis[index % 2]!, keys[index % 2]!, 'POST', '/v1/start', body);
              expect(answer.status, answer.text).to.equal(202);
              const runId = answer.body['pipeline_run_id'] as string;
              expected[tenant]!.all.push(runId);
              if (failing) expected[tenant]!.failed.push(runId);
              if (linked) expected[tenant]!.method.push(runId);
            }),
          ),
        );
        return methodId;
      }),
    ).then(async (methodIds) => {
      for (const [tenant, keys] of tenants.entries()) {
        const token = keys[1]!;
        const ended = await pollUntil(
          () => everyRun(token, '&state=COMPLETED,FAILED'),
          (ids) => ids.length === RUNS_PER_ORGANIZATION,
          300_000,
          500,
        );
        expect(new Set(ended).size).to.equal(RUNS_PER_ORGANIZATION);
        expect([...ended].sort()).to.deep.equal([...expected[tenant]!.all].sort());
        expect((await everyRun(token, '')).sort()).to.deep.equal([...expected[tenant]!.all].sort());
        expect((await everyRun(token, '&state=FAILED')).sort()).to.deep.equal([...expected[tenant]!.failed].sort());
        const byMethod = await everyRun(token, `&method_id=${methodIds[tenant]}`);
        expect(byMethod.sort()).to.deep.equal([...expected[tenant]!.method].sort());
        const foreign = await everyRun(token, `&method_id=${methodIds[1 - tenant]}`);
        expect(foreign).to.deep.equal([]);
      }
    });
  });

  it('should make one run of 100 concurrent duplicates of one Idempotency-Key sent to both APIs', async () => {
    const [key] = await organization('Initech');
    const body = { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'once' } };
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        call(apis[index % 2]!, key!, 'POST', '/v1/start', body, 'n8n-exec:node:0'),
      ),
    );
    expect(answers.map((answer) => answer.status)).to.deep.equal(Array(100).fill(202));
    expect(new Set(answers.map((answer) => answer.text)).size).to.equal(1);
    const runs = await pollUntil(
      () => everyRun(key!, ''),
      (ids) => ids.length > 0,
    );
    expect(runs).to.deep.equal([answers[0]!.body['pipeline_run_id']]);
    const other = await call(
      apis[1]!,
      key!,
      'POST',
      '/v1/start',
      { ...body, inputs: { name: 'twice' } },
      'n8n-exec:node:0',
    );
    expect(other.status).to.equal(409);
    expect(other.body).to.include({ code: 'idempotency_key_reused' });
  });
});
