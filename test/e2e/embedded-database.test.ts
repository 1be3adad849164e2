/**
 * The embedded control-plane database of a spawned API (docs/control-plane.md): open and migrated behind `/ready`,
 * kept across a restart, and refused to a second process on the same directory with one line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
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
});
