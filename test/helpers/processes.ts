/**
 * Spawned service processes for end-to-end tests: the API (`dist/api/server.js --no-worker`) and workers
 * (`dist/worker/main.js`) of the compiled build, each with its own environment (in the tests' empty configuration
 * directory unless it names its own `SERVICE_CONFIG_DIR`), JSON logs captured, and helpers to wait for a log line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_CONFIG_DIR, TEST_DATABASE_DIR, TEST_STORAGE_DIR } from './config-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A running service process. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  /** JSON log lines so far. */
  readonly logs: Record<string, unknown>[];
  /** Resolves with the first log line matching `predicate` (past or future). */
  waitForLog(
    predicate: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Send a signal and wait for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** How a service is spawned. */
export interface SpawnOptions {
  /** Start the API with its in-process worker pool (no `--no-worker`). */
  inProcessWorker?: boolean;
  /**
   * The process's limit of open descriptors, soft and hard (`ulimit -n`; Node raises its soft limit to the hard one at
   * start, so both are set). The system's when absent.
   */
  maxOpenFiles?: number;
}

/**
 * The node arguments that start a service entry: its compiled build (`dist/api/server.js`, `dist/worker/main.js`),
 * which `.mocharc.cjs` refreshes before a run that spawns the service (`scripts/build.mjs`); it starts about 2 s
 * sooner than the sources under tsx.
 * @param entry - `api` or `worker`
 */
function entryScript(entry: 'api' | 'worker'): string[] {
  return [entry === 'api' ? 'dist/api/server.js' : 'dist/worker/main.js'];
}

/**
 * Spawn a service.
 * @param entry - `api` or `worker`
 * @param environment - variables added to the parent's environment
 * @param options - in-process worker, descriptor limit
 */
export function spawnService(
  entry: 'api' | 'worker',
  environment: Record<string, string>,
  options: SpawnOptions = {},
): ServiceProcess {
  const script = entryScript(entry);
  const args = [...script, ...(entry === 'api' && !options.inProcessWorker ? ['--no-worker'] : [])];
  // bash sets the limit, then becomes node (exec): the child's pid is node's
  const limited = options.maxOpenFiles
    ? ['-c', `ulimit -n ${options.maxOpenFiles} && exec "$0" "$@"`, process.execPath, ...args]
    : undefined;
  const child = spawn(limited ? 'bash' : process.execPath, limited ?? args, {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      COMPUTE_WARM_THREADS: '0',
      SERVICE_CONFIG_DIR: TEST_CONFIG_DIR,
      STORAGE_DIR: TEST_STORAGE_DIR,
      DATABASE_EMBEDDED_DIR: mkdtempSync(join(TEST_DATABASE_DIR, `${entry}-`)),
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const listeners: (() => void)[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {}
    }
    for (const listener of listeners.splice(0)) listener();
  });
  child.stderr!.on('data', () => undefined);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    logs,
    waitForLog(predicate, timeoutMs = 60000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${entry}: no matching log line within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = () => {
          const found = logs.find(predicate);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else listeners.push(check);
        };
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Spawn the API and wait until it listens.
 * @param environment - its variables (`PORT` is forced to 0)
 * @param options - as for {@link spawnService}
 * @returns the process and its base URL
 */
export async function spawnApi(
  environment: Record<string, string>,
  options: SpawnOptions = {},
): Promise<{ api: ServiceProcess; baseUrl: string }> {
  const api = spawnService('api', { ...environment, PORT: '0', HOST: '127.0.0.1' }, options);
  const line = await api.waitForLog(
    (entry) => typeof entry['port'] === 'number' && String(entry['msg']).includes('listening'),
    60000,
  );
  return { api, baseUrl: `http://127.0.0.1:${String(line['port'])}` };
}

function isCompletion(line: Record<string, unknown>, runId: string | undefined): boolean {
  return line['msg'] === 'run:completed' && (runId === undefined || line['pipeline_run_id'] === runId);
}

/**
 * The `run:completed` lines a worker has logged so far.
 * @param worker - a spawned worker (or an API with its in-process worker)
 * @param runId - only this run's lines when given
 */
export function completionLines(worker: ServiceProcess, runId?: string): Record<string, unknown>[] {
  return worker.logs.filter((line) => isCompletion(line, runId));
}

/**
 * How many `run:completed` lines some workers have logged so far, in all.
 * @param workers - spawned workers
 * @param runId - only this run's lines when given
 */
export function completionCount(workers: readonly ServiceProcess[], runId?: string): number {
  return workers.reduce((total, worker) => total + completionLines(worker, runId).length, 0);
}

/**
 * A worker's `run:completed` line of a run, once it is logged. The worker writes the run's COMPLETED record a moment
 * before the line, so a test that polled the status waits for the line instead of reading the logs at once.
 * @param worker - a spawned worker
 * @param runId - the run
 * @throws Error when no such line arrives within 60 s
 */
export function completionLine(worker: ServiceProcess, runId: string): Promise<Record<string, unknown>> {
  return worker.waitForLog((line) => isCompletion(line, runId));
}

/** How a process that ran to its end ended, and what it wrote. */
export interface FinishedProcess {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run a service entry until it exits by itself (a process that refuses to start).
 * @param entry - `api` or `worker`
 * @param environment - variables added to the parent's environment
 * @param timeoutMs - bound of the wait; past it the process is killed and the promise rejects
 */
export function runUntilExit(
  entry: 'api' | 'worker',
  environment: Record<string, string>,
  timeoutMs = 60000,
): Promise<FinishedProcess> {
  const child = spawn(process.execPath, entryScript(entry), {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      COMPUTE_WARM_THREADS: '0',
      SERVICE_CONFIG_DIR: TEST_CONFIG_DIR,
      STORAGE_DIR: TEST_STORAGE_DIR,
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry}: still running after ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A TCP port free at the time of the call, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/**
 * TCP ports free at the time of the call, on 127.0.0.1, all different: each is held until every one is found (two
 * calls of {@link freePort} in a row may both answer the port the first one just freed).
 * @param count - how many
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  return ports;
}
