/**
 * A PostgreSQL server of a test's own, for suites that stop and restart the database under a running service (the
 * machine's shared server cannot be stopped): `initdb` into a temporary directory (trust authentication, superuser
 * `postgres`), listening on 127.0.0.1 on a free port of its own, with its socket in that directory. When the tests run
 * as root, `initdb` and `pg_ctl` run as the `postgres` system user (`runuser`), since PostgreSQL refuses to run as
 * root. Readiness is waited for by condition (`pg_ctl -w`, then `pg_isready`), never by time.
 */
import { execFile } from 'node:child_process';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pollUntil } from './poll.js';
import { freePort } from './processes.js';

const run = promisify(execFile);

/** Where Debian and Ubuntu install the server's binaries, one folder per major version. */
const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql';
/** The system user PostgreSQL runs as when the tests run as root. */
const SERVER_USER = 'postgres';
/** Bound of each wait for the server to start or stop, in seconds (`pg_ctl -t`) and of the readiness poll. */
const WAIT_SECONDS = 60;

/** A running (or stopped) PostgreSQL server of one test. */
export interface OwnPostgres {
  /** Its URL, database `postgres`, superuser `postgres`, trust authentication (`postgres://postgres@127.0.0.1:<port>/postgres`). */
  readonly url: string;
  /** Its TCP port on 127.0.0.1 (the same across {@link OwnPostgres.stop} and {@link OwnPostgres.start}). */
  readonly port: number;
  /** Its data directory. */
  readonly dataDir: string;
  /**
   * Stop the server, waiting until it is down; its connections are cut.
   * @param mode - `fast` (the default: clients disconnected, a clean shutdown) or `immediate` (no shutdown checkpoint,
   *   like a crash)
   * @throws Error when `pg_ctl` fails (its output in the message)
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /**
   * Start it again on the same data directory and port, and wait until it accepts connections.
   * @throws Error when `pg_ctl` fails or the server is not ready within a minute
   */
  start(): Promise<void>;
  /** Stop it if it runs (immediately) and delete its directory; never throws for a server already gone. */
  destroy(): Promise<void>;
}

/**
 * The folder of the newest PostgreSQL binaries installed (`/usr/lib/postgresql/<major>/bin`, with `initdb`).
 * @returns the folder, or `undefined` when none is installed (the caller skips)
 */
export async function findPostgresBinaries(): Promise<string | undefined> {
  const majors = await readdir(DEBIAN_POSTGRES_ROOT).catch(() => [] as string[]);
  const sorted = majors.filter((name) => /^\d+(\.\d+)?$/.test(name)).sort((a, b) => Number(b) - Number(a));
  for (const major of sorted) {
    const bin = join(DEBIAN_POSTGRES_ROOT, major, 'bin');
    const names = await readdir(bin).catch(() => [] as string[]);
    if (['initdb', 'pg_ctl', 'pg_isready'].every((name) => names.includes(name))) return bin;
  }
  return undefined;
}

/** The system user's numeric ids, from `id`. */
async function idsOf(user: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Initialize and start a server of the test's own.
 * @param bin - the binaries' folder ({@link findPostgresBinaries})
 * @returns the running server; the caller {@link OwnPostgres.destroy}s it
 * @throws Error when `initdb` or `pg_ctl` fails (their output in the message), or the server is not ready in a minute
 */
export async function startOwnPostgres(bin: string): Promise<OwnPostgres> {
  const root = await mkdtemp(join(tmpdir(), 'own-postgres-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = await idsOf(SERVER_USER);
    await chown(root, uid, gid);
  }
  const dataDir = join(root, 'data');
  const log = join(root, 'server.log');
  // As root, the binaries run as the server's user; either way they run in the temporary directory (readable by them).
  const pg = async (tool: string, args: string[]): Promise<void> => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', SERVER_USER, '--', join(bin, tool), ...args]]
      : [join(bin, tool), args];
    try {
      await run(file, argv, { cwd: root });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`${tool} ${args.join(' ')} failed: ${String(stderr ?? '')}${String(stdout ?? '')}`, {
        cause: error,
      });
    }
  };
  await pg('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale', '--no-sync']);
  const port = await freePort();
  const ready = (): Promise<boolean> =>
    run(join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port), '-t', '2']).then(
      () => true,
      () => false,
    );
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`;
  let running = false;
  const start = async (): Promise<void> => {
    await pg('pg_ctl', ['-D', dataDir, '-l', log, '-o', options, '-w', '-t', String(WAIT_SECONDS), 'start']);
    running = true;
    await pollUntil(ready, (up) => up, WAIT_SECONDS * 1000, 100);
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast'): Promise<void> => {
    await pg('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', String(WAIT_SECONDS), 'stop']);
    running = false;
  };
  try {
    await start();
  } catch (error) {
    if (running) await stop('immediate').catch(() => undefined);
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    stop,
    start,
    async destroy() {
      if (running) await stop('immediate').catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}
