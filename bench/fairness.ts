/**
 * Fair dispatch under a flood (docs/fair-dispatch.md): one organization starts 5,000 runs while the workers run them,
 * then another starts 20; the report gives how long the late runs waited to start (p50, p99, most) and whether they
 * all completed while the flood's backlog was still draining. Writes `bench/fairness.md`.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import type { RunRecord } from '../shared/orchestration/index.js';
import { QueueKeys } from '../shared/orchestration/queued.js';
import { JWT_ENVIRONMENT, signTestJwt } from '../test/helpers/jwt.js';
import { pollUntil } from '../test/helpers/poll.js';
import { startQueueDeployment } from '../test/helpers/queue-app.js';
import { TEST_REDIS_URL } from '../test/helpers/redis.js';
import { startMany } from '../test/helpers/start-many.js';

const FLOOD = 5000;
const LATE = 20;
const LIMIT = 20;

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}

const deployment = startQueueDeployment({
  environment: {
    ...JWT_ENVIRONMENT,
    INFERENCE_PROFILE: 'mock',
    MOCK_INFERENCE_LATENCY_MS: '200',
    RUN_ORG_IN_FLIGHT_LIMIT: String(LIMIT),
    WORKER_CONCURRENCY: String(2 * LIMIT),
    WORKER_SHUTDOWN_GRACE_MS: '0',
  },
});
const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
const keys = new QueueKeys(deployment.settings.queue.prefix);
try {
  await startMany(deployment.app, await signTestJwt({ user_id: 'flooding' }), FLOOD, 25);
  const backlogAtLateStart = await redis.zcard(keys.gateLine('flooding'));
  const late = await startMany(deployment.app, await signTestJwt({ user_id: 'late' }), LATE, LATE);
  const read = async () =>
    (await redis.mget(...late.map((runId) => keys.run(runId)))).map((text) => JSON.parse(text ?? 'null') as RunRecord);
  const done = await pollUntil(read, (runs) => runs.every((run) => run.state === 'COMPLETED'), 120_000, 20);
  const backlogAtLateEnd = await redis.zcard(keys.gateLine('flooding'));
  const waits = done.map((run) => Date.parse(run.started_at ?? '') - Date.parse(run.created_at)).sort((a, b) => a - b);
  const row = `| ${FLOOD} | ${backlogAtLateStart} | ${LATE} | ${quantile(waits, 0.5)} | ${quantile(waits, 0.99)} | ${waits.at(-1)} | ${backlogAtLateEnd} |`;
  process.stdout.write(`${row}\n`);
  writeFileSync(
    new URL('fairness.md', import.meta.url),
    [
      '# Fair dispatch under a flood',
      '',
      `Written by \`tsx bench/fairness.ts\` (part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}, load average ${loadavg()[0]!.toFixed(2)} at the end. One process runs the API and a worker (\`WORKER_CONCURRENCY=${2 * LIMIT}\`), mock inference answers after 200 ms, \`RUN_ORG_IN_FLIGHT_LIMIT=${LIMIT}\`. Organization A starts ${FLOOD} runs (25 requests at a time) while the worker runs them; organization B then starts ${LATE}. A start-up wait is the run's \`started_at\` minus its \`created_at\` (ms). The target (issue 33): B's runs start within 2 s p99 and complete while A's backlog still drains.`,
      '',
      "| A's runs | A's line when B starts | B's runs | B's start-up wait p50 (ms) | p99 (ms) | most (ms) | A's line when B's last completed |",
      '|---|---|---|---|---|---|---|',
      row,
      '',
    ].join('\n'),
  );
} finally {
  redis.disconnect();
  await deployment.close();
}
