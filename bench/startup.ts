/**
 * Startup (`npm run bench`; docs/architecture.md#startup): the time from spawning the production start,
 * `node dist/api/server.js`, to the first `200` of `GET /health`, in `direct` mode and in queue mode (`--no-worker`, on
 * the Redis of `TEST_REDIS_URL` under a unique prefix), against anchor **E** started the same way (a bare Express 5
 * server with `express.json()`, evaluated by a process of its own). Interleaved rounds (`BENCH_STARTUP_ROUNDS`, default
 * 7);
 * medians with their spread. The build is refreshed first (`scripts/build.mjs --if-stale`). Target: ≤ 1 s (issue 13).
 * Writes `bench/startup.md`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { QUEUE_CONFIG_DIR } from '../test/helpers/config-dir.js';
import { createTestDatabase } from '../test/helpers/postgres.js';
import { freePort } from '../test/helpers/processes.js';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../test/helpers/redis.js';
import { median } from './comparison.js';
import { ensureProductionBuild, ROOT } from './production-build.js';

const ROUNDS = Number(process.env['BENCH_STARTUP_ROUNDS'] ?? 7);
const TARGET_MS = 1000;

/** Anchor E as a script of its own: what a bare Express 5 process costs to start on this machine. */
const ECHO_ANCHOR = `
import express from 'express';
const app = express();
app.use(express.json({ limit: '64mb' }));
app.get('/health', (_req, res) => { res.json({ status: 'ok' }); });
app.listen(Number(process.env.PORT), '127.0.0.1');
`;

interface Scenario {
  name: string;
  args: string[];
  environment: Record<string, string>;
}

/** Spawn, then poll `/health` every 2 ms until it answers 200; the elapsed ms. */
async function timeToHealth(scenario: Scenario): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, scenario.args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...scenario.environment,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      const answered = await fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (answered) return performance.now() - started;
      if (child.exitCode !== null) throw new Error(`${scenario.name}: exited with status ${child.exitCode}`);
      await delay(2);
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // SIGTERM: a graceful exit releases the embedded database's directory for the next start
      child.kill('SIGTERM');
      await exited;
    }
  }
}

async function main(): Promise<void> {
  ensureProductionBuild();
  const work = mkdtempSync(join(tmpdir(), 'mthds-bench-startup-'));
  const prefix = uniquePrefix();
  // a queue deployment keeps its control plane in PostgreSQL (docs/control-plane.md); direct mode, the embedded one
  const postgres = await createTestDatabase();
  const storage = { STORAGE_DIR: join(work, 'storage'), METHOD_CACHE_DIR: join(work, 'methods') };
  const scenarios: Scenario[] = [
    { name: 'anchor E: bare Express 5', args: ['--input-type=module', '--eval', ECHO_ANCHOR], environment: {} },
    {
      // the warm-up creates the embedded database; the rounds reopen it, as a restart does
      name: 'API, direct mode (embedded database)',
      args: ['dist/api/server.js'],
      environment: { ...storage, DATABASE_URL: '', DATABASE_EMBEDDED_DIR: join(work, 'database') },
    },
    {
      name: 'API, queue mode (--no-worker, PostgreSQL)',
      args: ['dist/api/server.js', '--no-worker'],
      environment: {
        ...storage,
        SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: prefix,
        DATABASE_URL: postgres.url,
      },
    },
  ];
  const times = new Map<string, number[]>(scenarios.map((scenario) => [scenario.name, []]));
  try {
    for (const scenario of scenarios) await timeToHealth(scenario);
    for (let round = 0; round < ROUNDS; round++)
      for (const scenario of scenarios) times.get(scenario.name)!.push(await timeToHealth(scenario));
  } finally {
    rmSync(work, { recursive: true, force: true });
    await deletePrefix(prefix).catch(() => undefined);
    await postgres.drop();
  }
  const anchor = median(times.get(scenarios[0]!.name)!);
  const rows = scenarios.map((scenario) => {
    const measured = times.get(scenario.name)!;
    const ms = median(measured);
    const spread = `${Math.min(...measured).toFixed(0)}–${Math.max(...measured).toFixed(0)}`;
    const verdict = scenario === scenarios[0] ? '—' : ms <= TARGET_MS ? '≤ 1 s ✓' : '≤ 1 s ✗';
    return `| ${scenario.name} | ${ms.toFixed(0)} | ${spread} | ${(ms / anchor).toFixed(2)} | ${verdict} |`;
  });
  const [one] = loadavg();
  const report = [
    `# Startup (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
    '',
    `Time from spawning the process to the first 200 of \`GET /health\`, median of ${ROUNDS} interleaved rounds after`,
    `one warm-up each (spread min–max), in ms. Load average of the host when done: ${one!.toFixed(2)} (1 min).`,
    '',
    '| process | ms to /health | spread | ÷ anchor E | target |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  writeFileSync(join(ROOT, 'bench', 'startup.md'), report);
  process.stdout.write(report);
}

await main();
