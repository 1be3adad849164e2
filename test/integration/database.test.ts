/**
 * The control plane's database (docs/control-plane.md): the embedded PGlite keeps what it holds across restarts and
 * belongs to one process; on PostgreSQL, processes booting together migrate once, and a database of the previous
 * release is brought up to date with its rows kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { SettingsError } from '../../shared/config/settings.js';
import { type ControlPlaneDatabase, openDatabase } from '../../shared/database/index.js';
import { organizationsAndApiKeys } from '../../shared/database/migrations/0001-organizations-and-api-keys.js';
import { CONTROL_PLANE_MIGRATIONS } from '../../shared/database/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

/** Every migration the code ships, in the order they apply. */
async function shipped(): Promise<string[]> {
  return Object.keys(await CONTROL_PLANE_MIGRATIONS.getMigrations()).sort();
}

async function migrationNames(database: ControlPlaneDatabase): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
  return rows.map((row) => row.name);
}

describe('the control-plane database', function () {
  this.timeout(60_000);

  describe('embedded (PGlite)', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'mthds-pglite-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('should migrate an empty directory and keep its rows across a restart', async () => {
      const first = await openDatabase({ embeddedDir: dir, poolMax: 1 });
      expect(first.kind).to.equal('embedded');
      expect(await migrationNames(first)).to.deep.equal(await shipped());
      await first.db.insertInto('organizations').values({ id: 'org_a', name: 'A' }).execute();
      await first.close();

      const second = await openDatabase({ embeddedDir: dir, poolMax: 1 });
      try {
        const rows = await second.db.selectFrom('organizations').select(['id', 'name']).execute();
        expect(rows).to.deep.equal([{ id: 'org_a', name: 'A' }]);
        expect(await migrationNames(second)).to.deep.equal(await shipped());
      } finally {
        await second.close();
      }
    });

    it('should refuse a second process on the same directory with a one-line reason naming DATABASE_URL', async () => {
      const holder = await openDatabase({ embeddedDir: dir, poolMax: 1 });
      try {
        const refusal = await openDatabase({ embeddedDir: dir, poolMax: 1 }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refusal).to.be.instanceOf(SettingsError);
        expect((refusal as Error).message).to.match(/^Invalid configuration, refusing to start: DATABASE_URL: /);
        expect((refusal as Error).message).to.not.include('\n');
      } finally {
        await holder.close();
      }
    });
  });

  describe('PostgreSQL', () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase();
    });
    afterEach(() => database.drop());

    it('should migrate once when three processes boot together', async () => {
      const opened = await Promise.all(
        [1, 2, 3].map(() => openDatabase({ url: database.url, embeddedDir: '', poolMax: 2 })),
      );
      try {
        expect(opened.map((one) => one.kind)).to.deep.equal(['postgres', 'postgres', 'postgres']);
        for (const one of opened) expect(await migrationNames(one)).to.deep.equal(await shipped());
        const { rows } = await sql<{ count: string }>`select count(*) as count from kysely_migration`.execute(
          opened[0]?.db as ControlPlaneDatabase['db'],
        );
        expect(rows[0]?.count).to.equal(String((await shipped()).length));
      } finally {
        await Promise.all(opened.map((one) => one.close()));
      }
    });

    it('should bring a database of the previous release up to date, keeping its rows', async () => {
      const previous = new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }),
      });
      const migrated = await new Migrator({
        db: previous,
        provider: { getMigrations: async () => ({ '0001-organizations-and-api-keys': organizationsAndApiKeys }) },
      }).migrateToLatest();
      expect(migrated.error).to.equal(undefined);
      await sql`insert into organizations (id, name) values ('org_kept', 'Kept')`.execute(previous);
      await previous.destroy();
      const upgraded = await openDatabase({ url: database.url, embeddedDir: '', poolMax: 2 });
      try {
        expect(await migrationNames(upgraded)).to.deep.equal(await shipped());
        const kept = await upgraded.db.selectFrom('organizations').select('name').execute();
        expect(kept).to.deep.equal([{ name: 'Kept' }]);
        expect(await upgraded.db.selectFrom('runs').selectAll().execute()).to.deep.equal([]);
      } finally {
        await upgraded.close();
      }
    });

    it('should stop the boot with the driver error when the server cannot be reached', async () => {
      const refusal = await openDatabase({
        url: 'postgres://postgres@127.0.0.1:1/none',
        embeddedDir: '',
        poolMax: 1,
      }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).to.be.instanceOf(Error);
      expect((refusal as NodeJS.ErrnoException).code).to.equal('ECONNREFUSED');
    });
  });
});
