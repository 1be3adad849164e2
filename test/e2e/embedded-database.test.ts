/**
 * The embedded control-plane database of a spawned API (docs/control-plane.md): open and migrated behind `/ready`,
 * its catalog and run history kept across a restart (what `npm ci && npm start` gives), and refused to a second process
 * on the same directory with one line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { runUntilExit, type ServiceProcess, spawnApi } from '../helpers/processes.js';

describe('the embedded control-plane database of a spawned API', function () {
  this.timeout(180_000);
  let dir: string;
  let api: ServiceProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mthds-embedded-'));
  });
  afterEach(async () => {
    await api?.stop();
    api = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const embedded = () => ({ DATABASE_URL: '', DATABASE_EMBEDDED_DIR: join(dir, 'database') });

  it('should be ready once the database is open, and refuse a second API on the directory with one line', async () => {
    const spawned = await spawnApi(embedded());
    api = spawned.api;
    const ready = await pollUntil(
      () =>
        fetch(`${spawned.baseUrl}/ready`).then(async (answer) => ({
          status: answer.status,
          body: await answer.json(),
        })),
      (answer) => answer.status === 200,
      150_000,
      100,
    );
    expect(ready.body).to.deep.equal({
      status: 'ready',
      checks: { diagnostics_threads: 'ok', control_plane_database: 'ok' },
    });

    const second = await runUntilExit('api', { ...embedded(), PORT: '0', HOST: '127.0.0.1' });
    expect(second.code, second.stderr).to.equal(1);
    expect(second.stderr).to.equal(
      `Invalid configuration, refusing to start: DATABASE_URL: required for more than one process: the embedded database in ${join(dir, 'database')} is open in another process (set DATABASE_URL to a PostgreSQL server shared by every API process)\n`,
    );
  });

  it('should keep the methods catalog and the run history across a restart', async () => {
    const ready = async (base: string) =>
      pollUntil(
        () => fetch(`${base}/ready`).then((answer) => answer.status),
        (status) => status === 200,
        150_000,
        100,
      );
    const post = (base: string, path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (answer) => ({ status: answer.status, body: (await answer.json()) as Record<string, unknown> }));
    const first = await spawnApi(embedded());
    api = first.api;
    await ready(first.baseUrl);
    const method = await post(first.baseUrl, '/v1/methods', { name: 'Greeter', mthds: GREETING_BUNDLE });
    expect(method.status).to.equal(201);
    const run = await post(first.baseUrl, '/v1/execute', {
      mthds_contents: [GREETING_BUNDLE],
      inputs: { name: 'Ada' },
    });
    expect(run.status).to.equal(200);
    await pollUntil(
      () => fetch(`${first.baseUrl}/v1/runs`).then(async (answer) => (await answer.json()) as { items: unknown[] }),
      (page) => page.items.length === 1,
    );
    expect(await api.stop()).to.equal(0);

    const second = await spawnApi(embedded());
    api = second.api;
    await ready(second.baseUrl);
    const methods = (await (await fetch(`${second.baseUrl}/v1/methods`)).json()) as { items: { method_id: string }[] };
    expect(methods.items.map((item) => item.method_id)).to.deep.equal([method.body['method_id']]);
    const runs = (await (await fetch(`${second.baseUrl}/v1/runs`)).json()) as {
      items: { pipeline_run_id: string; status: string }[];
    };
    expect(runs.items).to.have.lengthOf(1);
    expect(runs.items[0]).to.include({ pipeline_run_id: run.body['pipeline_run_id'], status: 'COMPLETED' });
  });
});
