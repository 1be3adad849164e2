/**
 * The run history through a PostgreSQL outage (docs/control-plane.md#the-history-outbox, docs/control-plane.md#outages):
 * a queue deployment (real Redis, in-process workers, mock inference) whose control plane is a PostgreSQL server of
 * the test's own, stopped while runs are started. Starting a run and running it need Redis only, so every run started
 * during the outage is acknowledged and finishes; the listing, which needs the database, answers 503
 * ControlPlaneUnavailableError meanwhile; and once the server is back the history writer drains the outbox, so the
 * listing shows every run, finished. The time the history takes to catch up is logged, not asserted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { type ControlPlaneDatabase, openDatabase } from '../../shared/database/index.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { findPostgresBinaries, type OwnPostgres, startOwnPostgres } from '../helpers/own-postgres.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';

/** Runs started while the database is down. */
const DURING_OUTAGE = 300;
/** Runs started before the outage. */
const BEFORE_OUTAGE = 3;
/** Requests in flight at once, so 300 starts and status reads do not all land in one tick. */
const CONCURRENCY = 25;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

interface Listed {
  pipeline_run_id: string;
  status: string;
}

/** Call `work` on every item, `CONCURRENCY` at a time, keeping the order. */
async function inChunks<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += CONCURRENCY)
    results.push(...(await Promise.all(items.slice(start, start + CONCURRENCY).map(work))));
  return results;
}

describe('run history through a PostgreSQL outage (queue mode, a PostgreSQL of its own)', function () {
  this.timeout(180_000);
  let postgres: OwnPostgres | undefined;
  let controlPlane: ControlPlaneDatabase | undefined;
  let deployment: QueueDeployment | undefined;
  let server: Server | undefined;
  let baseUrl = '';
  const earlier: string[] = [];
  const during: string[] = [];

  async function call(method: 'GET' | 'POST', path: string, body?: object): Promise<Answer> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const startRun = (name: string) =>
    call('POST', '/v1/start', { mthds_contents: [GREETING_BUNDLE], pipe_code: 'greet_person', inputs: { name } });

  /** Every listed run, page by page (limit 200); the status of the first page that is not a 200 instead. */
  async function listAll(): Promise<Listed[] | Answer> {
    const seen: Listed[] = [];
    let cursor: string | null = null;
    do {
      const page = await call('GET', `/v1/runs?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      if (page.status !== 200) return page;
      seen.push(...(page.body['items'] as Listed[]));
      cursor = page.body['next_cursor'] as string | null;
    } while (cursor !== null);
    return seen;
  }

  /** Whether the listing holds exactly `ids`, each COMPLETED. */
  const listsCompleted = (ids: readonly string[]) => (listed: Listed[] | Answer) =>
    Array.isArray(listed) &&
    listed.length === ids.length &&
    listed.every((run) => run.status === 'COMPLETED') &&
    ids.every((id) => listed.some((run) => run.pipeline_run_id === id));

  /** The history's rows of finished runs, read from the table (the one owner of `AUTH_MODE=none`). */
  async function completedRows(): Promise<number> {
    const row = await controlPlane!.db
      .selectFrom('runs')
      .select((eb) => eb.fn.countAll().as('rows'))
      .where('state', '=', 'COMPLETED')
      .executeTakeFirstOrThrow();
    return Number(row.rows);
  }

  before(async function () {
    const bin = await findPostgresBinaries();
    if (bin === undefined) {
      process.stderr.write(
        '\n  No PostgreSQL binaries found (initdb, pg_ctl and pg_isready under /usr/lib/postgresql/<major>/bin; apt-get install postgresql): skipping the outage test.\n\n',
      );
      this.skip();
    }
    postgres = await startOwnPostgres(bin);
    controlPlane = await openDatabase({ url: postgres.url, embeddedDir: '', poolMax: 4 });
    deployment = startQueueDeployment({ environment: { AUTH_MODE: 'none' }, controlPlane });
    server = createServer(deployment.app);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    await deployment?.close();
    await controlPlane?.close();
    await postgres?.destroy();
  });

  it('should list the runs started while PostgreSQL is up', async () => {
    for (let index = 0; index < BEFORE_OUTAGE; index += 1) {
      const acked = await startRun(`before-${index}`);
      expect(acked.status, JSON.stringify(acked.body)).to.equal(202);
      earlier.push(acked.body['pipeline_run_id'] as string);
    }
    await pollUntil(listAll, listsCompleted(earlier), 60_000, 100);
    expect(await completedRows()).to.equal(BEFORE_OUTAGE);
  });

  describe('when PostgreSQL stops', () => {
    before(async () => {
      await postgres!.stop('fast');
    });

    it(`should acknowledge ${DURING_OUTAGE} starts with 202 and run each to COMPLETED`, async () => {
      const names = Array.from({ length: DURING_OUTAGE }, (_, index) => `during-${index}`);
      const acks = await inChunks(names, startRun);
      expect(acks.filter((ack) => ack.status !== 202).map((ack) => ack.body)).to.deep.equal([]);
      during.push(...acks.map((ack) => ack.body['pipeline_run_id'] as string));
      expect(new Set(during).size).to.equal(DURING_OUTAGE);
      const pending = new Set(during);
      await pollUntil(
        async () => {
          const states = await inChunks([...pending], async (id) => ({
            id,
            answer: await call('GET', `/v1/runs/${id}/status`),
          }));
          for (const { id, answer } of states) {
            if (answer.status !== 200)
              throw new Error(`status of ${id}: ${answer.status} ${JSON.stringify(answer.body)}`);
            if (answer.body['status'] === 'FAILED') throw new Error(`run ${id} failed: ${JSON.stringify(answer.body)}`);
            if (answer.body['status'] === 'COMPLETED') pending.delete(id);
          }
          return pending.size;
        },
        (left) => left === 0,
        150_000,
        200,
      );
    });

    it('should answer the listing 503 ControlPlaneUnavailableError', async () => {
      const answer = await call('GET', '/v1/runs?limit=200');
      expect(answer.status, JSON.stringify(answer.body)).to.equal(503);
      expect(answer.body['request_id']).to.be.a('string');
      expect(answer.body).to.deep.equal({
        type: '/errors/control-plane-unavailable-error/',
        title: 'Control plane unavailable',
        status: 503,
        detail:
          'The control plane database cannot be reached right now; retry later. Runs already accepted are not affected.',
        instance: '/v1/runs',
        request_id: answer.body['request_id'],
        error_type: 'ControlPlaneUnavailableError',
        code: 'control_plane_unavailable',
        error_domain: 'runtime',
        retryable: true,
      });
    });
  });

  describe('when PostgreSQL comes back', () => {
    let restartedAt = 0;
    before(async () => {
      await postgres!.start();
      restartedAt = performance.now();
    });

    it('should have the history writer write every run by itself', async () => {
      const total = BEFORE_OUTAGE + DURING_OUTAGE;
      // Read the table directly: a listing would write a batch of the outbox itself (api/routes/run-history.ts).
      await pollUntil(completedRows, (rows) => rows === total, 150_000, 100);
      const caughtUpMs = Math.round(performance.now() - restartedAt);
      process.stdout.write(
        `      the writer caught up ${caughtUpMs} ms after PostgreSQL came back (${total} runs COMPLETED)\n`,
      );
    });

    it('should list every run, COMPLETED', async () => {
      const all = [...earlier, ...during];
      const listed = await pollUntil(listAll, listsCompleted(all), 60_000, 200);
      expect((listed as Listed[]).map((run) => run.pipeline_run_id).sort()).to.deep.equal([...all].sort());
    });
  });
});
