/**
 * Real-PostgreSQL helpers for tests: a database of its own per test (so runs share the machine's server safely),
 * dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type ControlPlaneDatabase, openDatabase } from '../../shared/database/index.js';

/** The machine's PostgreSQL, as a server URL without a database (CI starts one when missing; trust auth). */
export const TEST_POSTGRES_URL = process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432';

/** A database created for one test. */
export interface TestDatabase {
  /** Its URL, for `DATABASE_URL`. */
  readonly url: string;
  /** Drop it, closing whatever connections are left. */
  drop(): Promise<void>;
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${TEST_POSTGRES_URL}/postgres` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Create an empty database with a unique name. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `mthds_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  return {
    url: `${TEST_POSTGRES_URL}/${name}`,
    drop: () =>
      onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

let processDatabase: TestDatabase | undefined;

/**
 * Mocha root hooks (`.mocharc.cjs` `require`): one database for the services this test process spawns, named in
 * `DATABASE_URL` before the first test (spawned API processes inherit it, so they share PostgreSQL instead of each
 * opening an embedded database), dropped after the last.
 */
export const mochaHooks = {
  async beforeAll(): Promise<void> {
    if (process.env['DATABASE_URL'] !== undefined) return;
    processDatabase = await createTestDatabase();
    process.env['DATABASE_URL'] = processDatabase.url;
  },
  async afterAll(): Promise<void> {
    await processDatabase?.drop();
  },
};

/** The control plane of a suite, open between its `before` and `after` hooks. */
export interface SuiteControlPlane {
  /** The open control plane (only between the hooks). */
  readonly database: ControlPlaneDatabase;
  /** The URL of its database, for `DATABASE_URL`. */
  readonly url: string;
}

/**
 * Give the calling `describe` a control plane of its own: a fresh database, migrated in `before`, closed and dropped in
 * `after`.
 * @param poolMax - its connection pool's size
 * @returns a handle whose members are set once `before` ran
 */
export function useTestControlPlane(poolMax = 4): SuiteControlPlane {
  let created: TestDatabase | undefined;
  let opened: ControlPlaneDatabase | undefined;
  before(async () => {
    created = await createTestDatabase();
    opened = await openDatabase({ url: created.url, embeddedDir: '', poolMax });
  });
  after(async () => {
    await opened?.close();
    await created?.drop();
  });
  return {
    get database(): ControlPlaneDatabase {
      if (!opened) throw new Error('the control plane opens in the suite’s before hook');
      return opened;
    },
    get url(): string {
      if (!created) throw new Error('the test database is created in the suite’s before hook');
      return created.url;
    },
  };
}
