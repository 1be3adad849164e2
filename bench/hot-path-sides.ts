/**
 * The two sides of `bench/hot-path.ts`, each an API process and a worker process on a private Redis of its own: the
 * service in queue mode (the production build, `dist/api/server.js --no-worker` and `dist/worker/main.js`, with the
 * deployment's defaults: embedded control plane, history outbox, callback queue) and the naive anchor
 * (`bench/naive-runner.ts`). Both call the same fake provider and sign callbacks to the same receiver.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { RUN_QUEUE } from '../shared/orchestration/queued.js';
import { QUEUE_CONFIG_DIR } from '../test/helpers/config-dir.js';
import { type ServiceProcess, spawnApi, spawnService } from '../test/helpers/processes.js';
import { type PrivateRedis, startPrivateRedis } from './private-redis.js';
import { ROOT } from './production-build.js';

/** Which side. */
export type SideName = 'anchor' | 'service';

/** What both sides are given. */
export interface SideOptions {
  /** The fake provider's base URL, ending in `/v1`. */
  providerUrl: string;
  /** The key that signs callbacks. */
  callbackSecret: string;
  /** Jobs one worker process runs at once. */
  workerConcurrency: number;
}

/** One side, running. */
export interface Side {
  readonly name: SideName;
  /** Its private Redis. */
  readonly redis: PrivateRedis;
  /** The route that starts a run (answers 202). */
  readonly startUrl: string;
  /** Its run queue, to pause and resume consumption. */
  readonly runQueue: Queue;
  /** Start its worker process; resolves once it takes jobs. */
  startWorker(): Promise<void>;
  /** CPU time its API process and its worker process (0 when none runs) have used so far, in ms. */
  cpuMs(): { api: number; worker: number };
  /** Stop its worker process (SIGTERM, then wait for the exit). */
  stopWorker(): Promise<void>;
  /** Stop every process and the Redis. */
  close(): Promise<void>;
}

/** A stopped-on-close process with a wait for a log line. */
interface Spawned {
  readonly pid: number;
  waitFor(msg: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** Clock ticks per second of `/proc/<pid>/stat` (Linux's `USER_HZ`). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time a process (all its threads) has used, user and system, in ms; 0 once it is gone.
 * @param pid - the process
 */
function processCpuMs(pid: number): number {
  try {
    // the fields after the command name (which is in parentheses and may hold spaces): utime and stime are 14 and 15
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

function fromService(process: ServiceProcess): Spawned {
  return {
    pid: process.child.pid ?? 0,
    waitFor: (msg) => process.waitForLog((line) => line['msg'] === msg),
    stop: async () => {
      await process.stop('SIGKILL');
    },
  };
}

function spawnNaive(role: 'api' | 'worker', environment: Record<string, string>): Spawned {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/naive-runner.ts', role], {
    cwd: ROOT,
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const complete = buffer.split('\n');
    buffer = complete.pop()!;
    for (const line of complete) lines.push(JSON.parse(line) as Record<string, unknown>);
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    pid: child.pid ?? 0,
    waitFor: (msg) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find((line) => line['msg'] === msg);
          if (found) resolve(found);
          else if (child.exitCode !== null) reject(new Error(`naive-runner ${role} exited with ${child.exitCode}`));
          else waiters.push(check);
        };
        void exited.then(check);
        check();
      }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function side(
  name: SideName,
  redis: PrivateRedis,
  api: { process: Spawned; startUrl: string },
  worker: () => Spawned,
  runQueue: Queue,
): Promise<Side> {
  let running: Spawned | undefined;
  return {
    name,
    redis,
    startUrl: api.startUrl,
    runQueue,
    async startWorker() {
      running = worker();
      await running.waitFor('worker started');
    },
    cpuMs: () => ({ api: processCpuMs(api.process.pid), worker: running ? processCpuMs(running.pid) : 0 }),
    async stopWorker() {
      await running?.stop();
      running = undefined;
    },
    async close() {
      await running?.stop();
      await api.process.stop();
      await runQueue.close();
      await redis.close();
    },
  };
}

/**
 * Start the naive anchor's API on a private Redis (its worker starts with {@link Side.startWorker}).
 * @param options - provider, callback secret, worker concurrency
 */
export async function startAnchor(options: SideOptions): Promise<Side> {
  const redis = await startPrivateRedis();
  const environment = {
    REDIS_URL: redis.url,
    PORT: '0',
    LLM_BASE_URL: options.providerUrl,
    LLM_API_KEY: 'sk-bench',
    CALLBACK_SECRET: options.callbackSecret,
    WORKER_CONCURRENCY: String(options.workerConcurrency),
  };
  const api = spawnNaive('api', environment);
  const { port } = await api.waitFor('listening');
  const runQueue = new Queue('runs', { connection: { url: redis.url } });
  return side(
    'anchor',
    redis,
    { process: api, startUrl: `http://127.0.0.1:${String(port)}/start` },
    () => spawnNaive('worker', environment),
    runQueue,
  );
}

/**
 * Start the service's API in queue mode on a private Redis, from the production build (its worker starts with
 * {@link Side.startWorker}), the provider's OpenAI-compatible backend at the fake, callbacks to loopback allowed.
 * @param options - provider, callback secret, worker concurrency
 */
export async function startService(options: SideOptions): Promise<Side> {
  const redis = await startPrivateRedis();
  const prefix = 'hot-path';
  const environment = {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: prefix,
    SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR,
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: options.providerUrl,
    COMPLETION_CALLBACK_SECRET: options.callbackSecret,
    CALLBACK_ALLOW_PRIVATE_HOSTS: 'true',
    WORKER_CONCURRENCY: String(options.workerConcurrency),
    // the acknowledgement phase queues every run it starts with no worker running: tens of thousands, past the
    // default line of one organization (the anchor has none)
    RUN_ORG_WAITING_LIMIT: '1000000',
  };
  const { api, baseUrl } = await spawnApi(environment);
  const runQueue = new Queue(RUN_QUEUE, { connection: { url: redis.url }, prefix: `${prefix}:bull` });
  return side(
    'service',
    redis,
    { process: fromService(api), startUrl: `${baseUrl}/v1/start` },
    () => fromService(spawnService('worker', environment)),
    runQueue,
  );
}
