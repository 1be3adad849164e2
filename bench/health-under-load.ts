/**
 * `/health` latency while the largest legal diagnostic requests compute (`npm run bench`; docs/isolation.md "Request
 * bodies"): the API in this process on 127.0.0.1 with the default settings, first idle (the anchor), then while four
 * clients keep sending 16 MiB validate, resolve, lint and format requests. Writes `bench/health-under-load.md`.
 */

import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { createApp } from '../api/app.js';
import { DiagnosticsPool } from '../api/offload/diagnostics-pool.js';
import { loadSettings } from '../shared/config/index.js';
import { createMockBackend } from '../shared/inference/index.js';
import { createLogger, Metrics } from '../shared/observability/index.js';
import { chainBundle, paddedBundle } from '../test/helpers/large-bundles.js';
import { listenOnLoopback, quantile, rawRequest } from '../test/helpers/raw-http.js';

/** Milliseconds between two `/health` probes. */
const PROBE_INTERVAL_MS = 20;
/** Probes per phase. */
const PROBES = Number(process.env['BENCH_HEALTH_PROBES'] ?? 300);

const json = (body: unknown) => Buffer.from(JSON.stringify(body));

async function probe(server: http.Server, count: number, keepGoing: () => boolean = () => true): Promise<number[]> {
  const latencies: number[] = [];
  while (latencies.length < count && keepGoing()) {
    const started = performance.now();
    const answer = await rawRequest(server, 'GET', '/health');
    if (answer.status !== 200) throw new Error(`/health answered ${answer.status}`);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
  }
  return latencies;
}

function row(name: string, latencies: number[]): string {
  const figure = (q: number) => quantile(latencies, q).toFixed(1);
  return `| ${name} | ${latencies.length} | ${figure(0.5)} | ${figure(0.99)} | ${Math.max(...latencies).toFixed(1)} |`;
}

async function main(): Promise<void> {
  const settings = loadSettings({
    LOG_LEVEL: 'silent',
    COMPUTE_QUEUE_MAX: '64',
    COMPUTE_TIMEOUT_MS: '180000',
    COMPUTE_QUEUE_DEADLINE_MS: '180000',
  });
  const metrics = new Metrics();
  const pool = new DiagnosticsPool({ compute: settings.compute, metrics, keepWarm: true });
  await pool.warm();
  const app = createApp({
    settings,
    logger: createLogger('silent', 'bench'),
    inference: createMockBackend(),
    metrics,
    diagnostics: pool,
  });
  const server = await listenOnLoopback(http.createServer(app));
  const idle = await probe(server, PROBES);

  const chain = chainBundle(2000);
  const padded = Array.from({ length: 16 }, (_, index) => paddedBundle(1000, `padded_${index}`));
  const heavy = [
    ['/v1/validate', json({ mthds_contents: [chain] })],
    ['/v1/validate', json({ mthds_contents: padded })],
    ['/v1/resolve', json({ files: [{ content: chain }] })],
    ['/v1/lint', json({ content: padded[0] })],
    ['/v1/format', json({ content: padded[1] })],
    ['/v1/lint', json({ content: chain })],
  ] as const;
  let stop = false;
  const client = async () => {
    for (let index = 0; !stop; index += 1) {
      const [path, body] = heavy[index % heavy.length]!;
      await rawRequest(server, 'POST', path, body, { keepBody: false });
    }
  };
  const clients = Promise.all(Array.from({ length: 4 }, client));
  while (pool.occupancy().busy < settings.compute.threads) await new Promise((resolve) => setTimeout(resolve, 5));
  const loaded = await probe(server, PROBES);
  stop = true;
  await clients;

  const table = [
    `# /health under load (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, COMPUTE_THREADS=${settings.compute.threads}, probe every ${PROBE_INTERVAL_MS} ms)`,
    '',
    '| phase | probes | p50 (ms) | p99 (ms) | max (ms) |',
    '|---|---|---|---|---|',
    row('idle (anchor)', idle),
    row('4 clients sending 16 MiB validate / resolve / lint / format', loaded),
    '',
  ].join('\n');
  writeFileSync(new URL('./health-under-load.md', import.meta.url), table);
  process.stdout.write(`${table}\n`);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await pool.close();
}

await main();
