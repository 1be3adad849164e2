/**
 * The control plane's cost on the hot path (`npm run bench`; docs/control-plane.md#the-history-outbox): `/v1/start`
 * acknowledgements per second of a queue deployment whose history goes to PostgreSQL (a database of its own on the
 * machine's server, `TEST_POSTGRES_URL`), against the same deployment without a control plane (the previous release's
 * start path), interleaved for `BENCH_ROUNDS` rounds (default 3) of `BENCH_SECONDS` (default 3) with
 * `BENCH_CONNECTIONS` (default 10) connections, no workers (the acknowledgement alone). Target: ≥ 0.90. Writes
 * `bench/control-plane.md`.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { openDatabase } from '../shared/database/index.js';
import { GREETING_BUNDLE } from '../test/helpers/greeting-bundle.js';
import { createTestDatabase } from '../test/helpers/postgres.js';
import { type QueueDeployment, startQueueDeployment } from '../test/helpers/queue-app.js';
import { listen } from './anchors.js';
import { type Comparison, comparisonRow, interleave, requestRate } from './comparison.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
const START = { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } };

async function served(deployment: QueueDeployment): Promise<{ url: string; close(): Promise<void> }> {
  const service = await listen(deployment.app.listen(0, '127.0.0.1'));
  return {
    url: service.url,
    close: async () => {
      await service.close();
      await deployment.close();
    },
  };
}

const database = await createTestDatabase();
const controlPlane = await openDatabase({ url: database.url, embeddedDir: '', poolMax: 10 });
const previous = await served(startQueueDeployment({ workers: false }));
const withHistory = await served(startQueueDeployment({ workers: false, controlPlane }));
try {
  const load = (base: string) => ({
    url: `${base}/v1/start`,
    method: 'POST' as const,
    body: START,
    seconds: SECONDS,
    connections: CONNECTIONS,
  });
  for (const base of [previous.url, withHistory.url]) await requestRate({ ...load(base), seconds: 1 });
  const pairs = await interleave(ROUNDS, (side) =>
    requestRate(load(side === 'subject' ? withHistory.url : previous.url)),
  );
  const comparison: Comparison = {
    name: '/v1/start ack, history on PostgreSQL vs no control plane',
    unit: 'req/s',
    target: '≥ 0.90',
    pairs,
  };
  const row = comparisonRow(comparison);
  process.stdout.write(`${row}\n`);
  writeFileSync(
    new URL('control-plane.md', import.meta.url),
    [
      '# The control plane on the hot path',
      '',
      `Written by \`tsx bench/control-plane.ts\` (part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}, load average ${loadavg()[0]!.toFixed(2)} at the end; ${ROUNDS} interleaved rounds of ${SECONDS} s, ${CONNECTIONS} connections, no workers.`,
      '',
      '| scenario | subject | anchor | ratio (min–max) | target |',
      '|---|---|---|---|---|',
      row,
      '',
    ].join('\n'),
  );
} finally {
  await withHistory.close();
  await previous.close();
  await controlPlane.close();
  await database.drop();
}
