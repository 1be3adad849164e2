/**
 * What tracing costs (`npm run bench`; issue 34, docs/tracing.md): the service's `/v1/execute` (direct mode, mock
 * inference, a greeting run) and `/v1/start` acknowledgements (queue mode, no worker, a private `redis-server`), each
 * a load of `BENCH_CONNECTIONS` connections for `BENCH_SECONDS` s after a 1 s warm-up, on three builds started the same
 * way: the previous release (the commit before tracing came in, built in a `git worktree`), this build with tracing
 * off (no OTLP endpoint), and this build with tracing on (every trace sampled, exported to a fake OTLP/HTTP collector
 * on 127.0.0.1). Interleaved rounds (`BENCH_ROUNDS`, default 3); writes `bench/tracing.md`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GREETING_BUNDLE } from '../test/helpers/greeting-bundle.js';
import { type FakeCollector, startFakeCollector } from '../test/helpers/otlp-collector.js';
import { median, requestRate } from './comparison.js';
import { type PrivateRedis, startPrivateRedis } from './private-redis.js';
import { ensureProductionBuild, ROOT } from './production-build.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 2);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);

/** The three builds measured. */
type Side = 'previous release' | 'tracing off' | 'tracing on';
const SIDES: readonly Side[] = ['previous release', 'tracing off', 'tracing on'];
/** The two loads. */
type Figure = 'execute' | 'start';

/** An API process of one build, listening. */
interface Api {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Start the API of the build under `root` (its `dist/api/server.js`, no in-process worker) and wait for its port.
 * @param root - the checkout whose build runs
 * @param environment - its variables
 */
async function startApi(root: string, environment: Record<string, string>): Promise<Api> {
  // tracing is on only where `environment` says so, whatever this process's environment holds
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  const child: ChildProcess = spawn(process.execPath, ['dist/api/server.js', '--no-worker'], {
    cwd: root,
    env: {
      ...inherited,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      STORAGE_DIR: mkdtempSync(join(tmpdir(), 'mthds-bench-storage-')),
      DATABASE_EMBEDDED_DIR: mkdtempSync(join(tmpdir(), 'mthds-bench-db-')),
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = '';
    const read = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as { port?: unknown };
          if (typeof entry.port !== 'number') continue;
          // the port is known: the rest of the log is dropped unread
          child.stdout!.off('data', read).resume();
          resolve(entry.port);
          return;
        } catch {
          // not a log line of the service
        }
      }
    };
    child.stdout!.on('data', read);
    void exited.then(() => reject(new Error(`the API of ${root} exited before it listened`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The checkout of the commit before tracing came in, built; removed by `remove`. */
function previousRelease(): { root: string; commit: string; remove(): void } {
  const added = execFileSync(
    'git',
    ['log', '--format=%H', '--diff-filter=A', '-1', '--', 'shared/observability/tracing.ts'],
    { cwd: ROOT, encoding: 'utf8' },
  ).trim();
  const commit = execFileSync('git', ['rev-parse', `${added}^`], { cwd: ROOT, encoding: 'utf8' }).trim();
  const root = mkdtempSync(join(tmpdir(), 'mthds-previous-'));
  rmSync(root, { recursive: true });
  execFileSync('git', ['worktree', 'add', '--detach', root, commit], { cwd: ROOT, stdio: 'ignore' });
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  return {
    root,
    commit: commit.slice(0, 10),
    remove: () => execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: ROOT, stdio: 'ignore' }),
  };
}

/** Requests per second of one figure on one side. */
async function measure(
  figure: Figure,
  side: Side,
  context: { previous: string; collector: FakeCollector; redis: PrivateRedis; configDir: string; round: number },
): Promise<number> {
  const root = side === 'previous release' ? context.previous : ROOT;
  const tracing: Record<string, string> =
    side === 'tracing on' ? { OTEL_EXPORTER_OTLP_ENDPOINT: context.collector.endpoint } : {};
  const queued: Record<string, string> =
    figure === 'start'
      ? {
          REDIS_URL: context.redis.url,
          QUEUE_PREFIX: `tracing-${context.round}-${side.replace(/ /g, '-')}`,
          SERVICE_CONFIG_DIR: context.configDir,
        }
      : { SERVICE_CONFIG_DIR: join(context.configDir, 'direct') };
  const api = await startApi(root, { ...queued, ...tracing });
  try {
    const load = {
      url: `${api.baseUrl}/v1/${figure}`,
      method: 'POST' as const,
      body: { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } },
      connections: CONNECTIONS,
    };
    await requestRate({ ...load, seconds: 1 });
    return await requestRate({ ...load, seconds: SECONDS });
  } finally {
    await api.stop();
  }
}

async function main(): Promise<void> {
  ensureProductionBuild();
  const previous = previousRelease();
  const collector = await startFakeCollector();
  const redis = await startPrivateRedis();
  const configDir = mkdtempSync(join(tmpdir(), 'mthds-bench-config-'));
  writeFileSync(join(configDir, 'api_override.toml'), 'orchestration_mode = "bullmq"\n');
  mkdirSync(join(configDir, 'direct'));
  const rates: Record<Figure, Record<Side, number[]>> = {
    execute: { 'previous release': [], 'tracing off': [], 'tracing on': [] },
    start: { 'previous release': [], 'tracing off': [], 'tracing on': [] },
  };
  try {
    for (let round = 0; round < ROUNDS; round += 1)
      for (const figure of ['execute', 'start'] as const)
        for (const side of SIDES)
          rates[figure][side].push(
            await measure(figure, side, { previous: previous.root, collector, redis, configDir, round }),
          );
  } finally {
    await redis.close();
    await collector.close();
    previous.remove();
    rmSync(configDir, { recursive: true, force: true });
  }
  const spans = collector.spans.length;
  const ratio = (figure: Figure, subject: Side, anchor: Side) => {
    const ratios = rates[figure][subject].map((value, index) => value / rates[figure][anchor][index]!);
    return `${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`;
  };
  const row = (figure: Figure, name: string) =>
    `| ${name} | ${SIDES.map((side) => `${median(rates[figure][side]).toFixed(0)} req/s`).join(' | ')} | ${ratio(figure, 'tracing off', 'previous release')} | ${ratio(figure, 'tracing on', 'tracing off')} |`;
  const report = [
    '# What tracing costs',
    '',
    `Written by \`tsx bench/tracing.ts\` (part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${existsSync('/proc/cpuinfo') ? 'Linux' : process.platform}.`,
    `Three builds started the same way: the previous release (commit \`${previous.commit}\`, the one before tracing came`,
    'in, built in a `git worktree`), this build with no OTLP endpoint (tracing off), and this build exporting every trace',
    `to a fake OTLP/HTTP collector on 127.0.0.1 (tracing on; it received ${spans} spans). Each figure: ${CONNECTIONS}`,
    `connections for ${SECONDS} s after a 1 s warm-up, a fresh API process each time; medians over ${ROUNDS} interleaved`,
    'rounds, ratios with their min–max spread.',
    '',
    '| figure | previous release | tracing off | tracing on | off ÷ previous | on ÷ off |',
    '|---|---|---|---|---|---|',
    row('execute', '`/v1/execute`, direct mode, mock inference'),
    row('start', '`/v1/start` acknowledgements, queue mode, no worker'),
    '',
  ].join('\n');
  writeFileSync(join(ROOT, 'bench/tracing.md'), report);
  process.stdout.write(`${report}\n`);
}

await main();
