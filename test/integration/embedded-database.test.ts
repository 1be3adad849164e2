import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { EmbeddedDatabase } from '../../shared/database/embedded-database.js';
import { whenDatabaseReachable } from '../../shared/database/index.js';
import { ControlPlaneUnavailableError } from '../../shared/errors/index.js';

describe('the embedded database in its own thread (shared/database/embedded-database.ts)', () => {
  let dir: string;
  let database: EmbeddedDatabase;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mthds-embedded-'));
    database = await EmbeddedDatabase.open(dir);
  });
  after(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should run queries in order, with their parameters, rows and changed-row counts', async () => {
    await database.query('create table notes (id int primary key, body jsonb, at timestamptz)');
    const at = new Date('2026-11-29T10:00:00Z');
    const inserted = await database.query('insert into notes values ($1, $2, $3), ($4, $5, $6)', [
      1,
      JSON.stringify({ tags: ['a'] }),
      at,
      2,
      JSON.stringify({ tags: [] }),
      at,
    ]);
    expect(inserted.affectedRows).to.equal(2);
    const { rows } = await database.query('select id, body, at from notes order by id');
    expect(rows).to.deep.equal([
      { id: 1, body: { tags: ['a'] }, at },
      { id: 2, body: { tags: [] }, at },
    ]);
  });

  it("should reject a failing query with the database's error and its SQLSTATE code", async () => {
    const failure = await database.query('insert into notes values ($1, null, null)', [1]).catch((error) => error);
    expect(failure).to.be.instanceOf(Error);
    expect(failure).to.include({ code: '23505', constraint: 'notes_pkey' });
    expect((failure as Error).message).to.match(/duplicate key/);
    expect((await database.query('select count(*)::int as n from notes')).rows).to.deep.equal([{ n: 2 }]);
  });

  it('should refuse a directory it cannot open with the reason', async () => {
    const failure = await EmbeddedDatabase.open('/proc/version/nested').catch((error) => error);
    expect(failure).to.be.instanceOf(Error);
    expect((failure as Error).message).to.not.equal('');
  });

  it('should answer every query after its close as an unreachable database (503), and close once', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'mthds-embedded-'));
    const other = await EmbeddedDatabase.open(otherDir);
    await Promise.all([other.close(), other.close()]);
    rmSync(otherDir, { recursive: true, force: true });
    const failure = await whenDatabaseReachable(() => other.query('select 1')).catch((error) => error);
    expect(failure).to.be.instanceOf(ControlPlaneUnavailableError);
    expect((failure as ControlPlaneUnavailableError).retryable).to.equal(true);
  });
});
