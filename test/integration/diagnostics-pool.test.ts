import http from 'node:http';
import { expect } from 'chai';
import { createApp } from '../../api/app.js';
import { DiagnosticsPool } from '../../api/offload/diagnostics-pool.js';
import { type Environment, loadSettings } from '../../shared/config/index.js';
import { renderProblem, ServerBusyError } from '../../shared/errors/index.js';
import { createMockBackend } from '../../shared/inference/index.js';
import { createLogger, Metrics } from '../../shared/observability/index.js';
import { sample } from '../helpers/corpus.js';
import { chainBundle, paddedBundle } from '../helpers/large-bundles.js';
import { pollUntil } from '../helpers/poll.js';
import { listenOnLoopback, rawRequest } from '../helpers/raw-http.js';

/** A listening app on its own diagnostics pool, closed after the suite. */
interface Deployment {
  server: http.Server;
  pool: DiagnosticsPool;
  metrics: Metrics;
  close(): Promise<void>;
}

async function deploy(environment: Environment): Promise<Deployment> {
  const settings = loadSettings(environment);
  const metrics = new Metrics();
  const pool = new DiagnosticsPool({ compute: settings.compute, metrics });
  const app = createApp({
    settings,
    logger: createLogger('silent', 'test'),
    inference: createMockBackend(),
    metrics,
    diagnostics: pool,
  });
  const server = await listenOnLoopback(http.createServer(app));
  return {
    server,
    pool,
    metrics,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pool.close();
    },
  };
}

const json = (body: unknown) => Buffer.from(JSON.stringify(body));

async function until(condition: () => boolean, timeoutMs = 60000): Promise<void> {
  await pollUntil(
    async () => condition(),
    (met) => met,
    timeoutMs,
    5,
  );
}

/** The longest texts `JSON.parse` read and `JSON.stringify` wrote on this thread (the event loop), in characters. */
interface EventLoopJson {
  parsed: number;
  written: number;
}

/**
 * Watch the JSON this thread reads and writes while `work` runs: a count of the work done on the event loop, which
 * does not depend on how fast the machine is (threads have their own `JSON`).
 * @param work - what to watch
 */
async function jsonOnEventLoop(work: () => Promise<void>): Promise<EventLoopJson> {
  const { parse, stringify } = JSON;
  const most: EventLoopJson = { parsed: 0, written: 0 };
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    most.parsed = Math.max(most.parsed, String(text).length);
    return parse(text, reviver);
  }) as typeof JSON.parse;
  JSON.stringify = ((...args: unknown[]) => {
    const written = Reflect.apply(stringify, JSON, args) as string | undefined;
    most.written = Math.max(most.written, written?.length ?? 0);
    return written;
  }) as typeof JSON.stringify;
  try {
    await work();
  } finally {
    JSON.parse = parse;
    JSON.stringify = stringify;
  }
  return most;
}

describe('the diagnostics pool (docs/isolation.md)', function () {
  this.timeout(240000);

  describe('when the largest legal requests run', () => {
    let deployment: Deployment;
    before(async () => {
      deployment = await deploy({
        COMPUTE_QUEUE_MAX: '16',
        COMPUTE_TIMEOUT_MS: '180000',
        COMPUTE_QUEUE_DEADLINE_MS: '180000',
      });
      await deployment.pool.warm();
    });
    after(() => deployment.close());

    it('should answer /health while 16 MiB validate, resolve, lint and format requests take every thread, reading and writing none of their JSON on the event loop (a stall of 25 s before; the latency figure is `npm run bench`)', async () => {
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
      const threads = loadSettings({}).compute.threads;
      const statuses: number[] = [];
      /** Whether every thread was still taken when each /health answered. */
      const takenAtAnswer: boolean[] = [];
      const onLoop = await jsonOnEventLoop(async () => {
        const queue = [...heavy];
        const worker = async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const answer = await rawRequest(deployment.server, 'POST', next[0], next[1], { keepBody: false });
            statuses.push(answer.status);
          }
        };
        const running = Promise.all(Array.from({ length: 4 }, worker));
        let done = false;
        void running.then(() => (done = true));
        await until(() => deployment.pool.occupancy().busy === threads);
        while (!done) {
          const health = await rawRequest(deployment.server, 'GET', '/health');
          expect(health.status).to.equal(200);
          takenAtAnswer.push(deployment.pool.occupancy().busy === threads);
        }
        await running;
      });
      expect(statuses).to.deep.equal(heavy.map(() => 200));
      // the event loop answered while every thread computed: it was not waiting for them
      expect(takenAtAnswer[0], '/health answered while every thread was taken').to.equal(true);
      // the bodies (16 MiB each) are decoded and the answers encoded in the threads
      const largestBody = Math.max(...heavy.map(([, body]) => body.length));
      expect(largestBody).to.be.above(16 * 1024 ** 2 - 1024 ** 2);
      expect(onLoop.parsed, 'longest JSON text parsed on the event loop').to.be.below(64 * 1024);
      expect(onLoop.written, 'longest JSON text written on the event loop').to.be.below(64 * 1024);
    });
  });

  describe('when every thread and the wait queue are taken', () => {
    let deployment: Deployment;
    before(async () => {
      deployment = await deploy({
        COMPUTE_THREADS: '1',
        COMPUTE_QUEUE_MAX: '1',
        COMPUTE_TIMEOUT_MS: '180000',
        COMPUTE_QUEUE_DEADLINE_MS: '180000',
      });
    });
    after(() => deployment.close());

    it('should refuse the third request with 503 ServerBusyError and Retry-After, and serve later ones', async () => {
      const slow = json({ mthds_contents: [chainBundle(400)] });
      const inFlight = () => deployment.pool.occupancy().busy + deployment.pool.occupancy().queued;
      const first = rawRequest(deployment.server, 'POST', '/v1/validate', slow, { keepBody: false });
      await until(() => inFlight() === 1);
      const second = rawRequest(deployment.server, 'POST', '/v1/validate', slow, { keepBody: false });
      await until(() => inFlight() === 2);
      const third = await rawRequest(
        deployment.server,
        'POST',
        '/v1/validate',
        json({ mthds_contents: [sample('hello_greeting')] }),
      );
      expect(third.status).to.equal(503);
      expect(third.headers['retry-after']).to.equal('5');
      expect(third.headers['content-type']).to.equal('application/problem+json');
      const body = JSON.parse(third.body) as { request_id: string };
      const expected = renderProblem(
        new ServerBusyError(
          'The server is busy: every compute thread is taken and its wait queue (1) is full. Retry in 5 s.',
          { retryable: true, retryAfterSeconds: 5 },
        ),
        {
          docsUrl: '',
          instance: '/v1/validate',
          requestId: body.request_id,
          disclosure: 'verbose',
        },
      );
      expect(body).to.deep.equal(expected.body);
      expect((await first).status).to.equal(200);
      expect((await second).status).to.equal(200);
      const later = await rawRequest(
        deployment.server,
        'POST',
        '/v1/validate',
        json({ mthds_contents: [sample('hello_greeting')] }),
      );
      expect(later.status).to.equal(200);
      expect(await deployment.metrics.registry.getSingleMetricAsString('mthds_compute_refusals_total')).to.contain(
        'mthds_compute_refusals_total{pool="diagnostics",reason="queue_full"} 1',
      );
    });
  });

  describe('when a request outgrows its time budget', () => {
    /**
     * A bundle whose dry run renders a template that never yields (catastrophic regex backtracking): slow on any
     * machine.
     */
    const NEVER_YIELDING_DRY_RUN = [
      'domain = "budget"',
      '[pipe.backtrack]',
      'type = "PipeCompose"',
      'description = "a replace whose regex backtracks for ever"',
      'inputs = { name = "Text" }',
      'output = "Text"',
      `template = '''{% set s = "${'a'.repeat(64)}!" %}{{ s | replace(r/(a+)+$/, "x") }}'''`,
    ].join('\n');
    let deployment: Deployment;
    before(async () => {
      deployment = await deploy({
        COMPUTE_THREADS: '1',
        COMPUTE_TIMEOUT_MS: '3000',
        COMPUTE_QUEUE_DEADLINE_MS: '180000',
      });
    });
    after(() => deployment.close());

    it('should answer 422 ComputeBudgetExceededError naming COMPUTE_TIMEOUT_MS, and serve the next request', async () => {
      const heavy = await rawRequest(
        deployment.server,
        'POST',
        '/v1/validate',
        json({ mthds_contents: [NEVER_YIELDING_DRY_RUN] }),
      );
      expect(heavy.status).to.equal(422);
      const problem = JSON.parse(heavy.body) as Record<string, unknown>;
      expect(problem).to.include({
        error_type: 'ComputeBudgetExceededError',
        status: 422,
        detail:
          'The request needed more than 3000 ms of computation (COMPUTE_TIMEOUT_MS) and was stopped; send a smaller or simpler request.',
      });
      const next = await rawRequest(deployment.server, 'POST', '/v1/lint', json({ content: sample('hello_greeting') }));
      expect(next.status, next.body).to.equal(200);
      expect(JSON.parse(next.body)).to.deep.equal({ diagnostics: [] });
    });
  });
});
