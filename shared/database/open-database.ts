/**
 * Opening the control plane's database (docs/control-plane.md): PostgreSQL through `pg` when a URL is set, else the
 * embedded PGlite in a data directory that one process holds, run in a worker thread of that process
 * (`embedded-database.ts`). Either way the migrations are applied before it is
 * used; Kysely's migrator holds a PostgreSQL advisory lock while it migrates, so processes booting together migrate
 * once.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { lock } from 'proper-lockfile';
import { SettingsError } from '../config/settings.js';
import { swallowedErrors } from '../observability/index.js';
import { EmbeddedDatabase } from './embedded-database.js';
import { CONTROL_PLANE_MIGRATIONS } from './migrations/index.js';
import type { ControlPlaneSchema } from './schema.js';

/** Where the control plane lives. */
export interface DatabaseOptions {
  /** A `postgres://` URL: PostgreSQL, shared by every process. Absent: the embedded database in `embeddedDir`. */
  readonly url?: string;
  /** The data directory of the embedded database (created when missing). */
  readonly embeddedDir: string;
  /** Most connections the pool opens to PostgreSQL. */
  readonly poolMax: number;
}

/** An open control-plane database. */
export interface ControlPlaneDatabase {
  /** The typed query builder. */
  readonly db: Kysely<ControlPlaneSchema>;
  /** `postgres` (a server, shared) or `embedded` (PGlite, this process only). */
  readonly kind: 'postgres' | 'embedded';
  /** Close the connections (and release the embedded directory). */
  close(): Promise<void>;
}

/**
 * How long a crashed holder's claim on the embedded directory lasts before another process may take it, in ms; the
 * holder refreshes it every quarter of that.
 */
const EMBEDDED_CLAIM_STALE_MS = 20_000;

/**
 * Whether an embedded database was already created in a directory (creating one takes seconds; reopening one, a
 * fraction of a second).
 * @param dir - `DATABASE_EMBEDDED_DIR`
 */
export function embeddedDatabaseExists(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

/**
 * Open the database and bring its schema up to date.
 * @param options - PostgreSQL URL or embedded directory, pool size
 * @returns the open database
 * @throws SettingsError (one line) when the embedded directory is held by another process
 * @throws Error when the database cannot be reached or a migration fails (the boot stops)
 */
export async function openDatabase(options: DatabaseOptions): Promise<ControlPlaneDatabase> {
  const opened = options.url === undefined ? await openEmbedded(options.embeddedDir) : openPostgres(options);
  try {
    await migrateToLatest(opened.db);
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}

function openPostgres(options: DatabaseOptions): ControlPlaneDatabase {
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolMax });
  pool.on('error', (error) => swallowedErrors.report('database:pool', error));
  const db = new Kysely<ControlPlaneSchema>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', close: () => db.destroy() };
}

async function openEmbedded(dir: string): Promise<ControlPlaneDatabase> {
  mkdirSync(dir, { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lock(dir, {
      retries: 0,
      stale: EMBEDDED_CLAIM_STALE_MS,
      update: EMBEDDED_CLAIM_STALE_MS / 4,
      realpath: false,
      // A refresh missed while the event loop was blocked (PGlite compiles its WASM on open) is no reason to stop.
      onCompromised: (error) => swallowedErrors.report('database:embedded-claim', error),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new SettingsError([
      `DATABASE_URL: required for more than one process: the embedded database in ${dir} is open in another process (set DATABASE_URL to a PostgreSQL server shared by every API process)`,
    ]);
  }
  let embedded: EmbeddedDatabase;
  let PGliteDialect: typeof import('kysely-pglite-dialect').PGliteDialect;
  try {
    // PGlite loads in its own thread: a process on PostgreSQL never loads it, nor its WebAssembly
    [embedded, { PGliteDialect }] = await Promise.all([EmbeddedDatabase.open(dir), import('kysely-pglite-dialect')]);
  } catch (error) {
    await release();
    throw error;
  }
  // the dialect calls only `query` and `close` of its client, which the thread's proxy answers alike
  const client = embedded as unknown as ConstructorParameters<typeof PGliteDialect>[0];
  const db = new Kysely<ControlPlaneSchema>({ dialect: new PGliteDialect(client) });
  return {
    db,
    kind: 'embedded',
    close: async () => {
      await db.destroy();
      await release();
    },
  };
}

async function migrateToLatest(db: Kysely<ControlPlaneSchema>): Promise<void> {
  const { error } = await new Migrator({ db, provider: CONTROL_PLANE_MIGRATIONS }).migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
}
