import { expect } from 'chai';
import { pino } from 'pino';
import { Counter } from 'prom-client';
import { IsolatedPool } from '../../../shared/compute/index.js';
import {
  Metrics,
  SWALLOWED_ERROR_QUIET_MS,
  SwallowedErrors,
  swallowedErrorsCounter,
} from '../../../shared/observability/index.js';
import { pollUntil } from '../../helpers/poll.js';

/** A reporter of its own: its counter, its lines (parsed) and a clock the test moves. */
function reporter() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info', base: null, timestamp: false },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  const counter = new Counter({
    name: 'test_swallowed_errors_total',
    help: 'test',
    labelNames: ['site'] as const,
    registers: [],
  });
  const clock = { ms: 0 };
  const errors = new SwallowedErrors({ counter, logger, now: () => clock.ms });
  const count = async (site: string) =>
    (await counter.get()).values.find((value) => value.labels['site'] === site)?.value ?? 0;
  return { errors, lines, clock, count };
}

function refused(): NodeJS.ErrnoException {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
}

describe('swallowed errors', () => {
  it('should count every error and log only the first of an outage', async () => {
    const { errors, lines, clock, count } = reporter();
    for (let index = 0; index < 5; index += 1) {
      errors.report('redis:producer', refused());
      clock.ms += 2000;
    }
    expect(await count('redis:producer')).to.equal(5);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ level: 40, site: 'redis:producer' });
    expect(lines[0]?.['msg']).to.match(/^error:swallowed redis:producer: connect ECONNREFUSED/);
  });

  it('should log an expected connection error with its message and code, without a stack', () => {
    const { errors, lines } = reporter();
    errors.report('redis:worker', refused());
    expect(lines[0]).to.include({
      site: 'redis:worker',
      error: 'connect ECONNREFUSED 127.0.0.1:1',
      code: 'ECONNREFUSED',
    });
    expect(lines[0]).not.to.have.property('stack');
  });

  it('should log any other error with its stack', () => {
    const { errors, lines } = reporter();
    errors.report('quarantine:process', new TypeError('channel closed'));
    expect(lines[0]).to.include({ site: 'quarantine:process', error: 'channel closed' });
    expect(lines[0]).not.to.have.property('code');
    expect(lines[0]?.['stack']).to.match(/^TypeError: channel closed\n/);
  });

  it('should keep sites apart', async () => {
    const { errors, lines, count } = reporter();
    errors.report('run-queue', refused());
    errors.report('callback-queue', refused());
    errors.report('run-queue', refused());
    expect(await count('run-queue')).to.equal(2);
    expect(await count('callback-queue')).to.equal(1);
    expect(lines.map((line) => line['site'])).to.deep.equal(['run-queue', 'callback-queue']);
  });

  it(`should log again once a site has gone ${SWALLOWED_ERROR_QUIET_MS} ms without an error`, async () => {
    const { errors, lines, clock, count } = reporter();
    errors.report('child-queue', refused());
    clock.ms += SWALLOWED_ERROR_QUIET_MS;
    errors.report('child-queue', refused());
    expect(lines).to.have.length(1);
    clock.ms += SWALLOWED_ERROR_QUIET_MS + 1;
    errors.report('child-queue', refused());
    expect(lines).to.have.length(2);
    expect(await count('child-queue')).to.equal(3);
  });

  it('should end an outage on recovery with one info line, and log the next error', async () => {
    const { errors, lines, count } = reporter();
    errors.report('redis:producer', refused());
    errors.report('redis:producer', refused());
    errors.report('redis:producer', refused());
    errors.recovered('redis:producer');
    expect(lines[1]).to.include({ level: 30, site: 'redis:producer', errors: 3 });
    expect(lines[1]?.['msg']).to.equal('error:swallowed redis:producer: recovered after 3 error(s)');
    errors.report('redis:producer', refused());
    expect(lines).to.have.length(3);
    expect(lines[2]).to.include({ level: 40, site: 'redis:producer' });
    expect(await count('redis:producer')).to.equal(4);
  });

  it('should log nothing on the recovery of a site that had no error', () => {
    const { errors, lines } = reporter();
    errors.recovered('redis:reader');
    expect(lines).to.deep.equal([]);
  });

  it('should count without a logger', async () => {
    const counter = new Counter({
      name: 'test_unlogged_total',
      help: 'test',
      labelNames: ['site'] as const,
      registers: [],
    });
    const errors = new SwallowedErrors({ counter });
    errors.report('redis:producer', refused());
    expect((await counter.get()).values).to.deep.equal([{ value: 1, labels: { site: 'redis:producer' } }]);
  });

  it("should serve the process's counter in every Metrics registry", async () => {
    const [first, second] = [new Metrics(), new Metrics()];
    const before = (await swallowedErrorsCounter.get()).values.find((value) => value.labels['site'] === 'test:site');
    swallowedErrorsCounter.inc({ site: 'test:site' });
    for (const metrics of [first, second]) {
      const text = await metrics.registry.getSingleMetricAsString('mthds_swallowed_errors_total');
      expect(text).to.include(`mthds_swallowed_errors_total{site="test:site"} ${(before?.value ?? 0) + 1}`);
    }
  });

  it('should count a compute pool thread that fails with no task, and the process carries on', async () => {
    const site = 'compute-pool:failing-load';
    const before = (await swallowedErrorsCounter.get()).values.find((value) => value.labels['site'] === site);
    const pool = new IsolatedPool({
      label: 'failing load',
      filename: new URL('../../helpers/thread-failing-on-load.ts', import.meta.url),
      maxThreads: 1,
      minThreads: 1,
      maxQueue: 1,
      queueDeadlineMs: 1000,
      timeoutMs: 1000,
      timeoutSetting: 'TEST_TIMEOUT_MS',
      heapMib: 64,
      heapSetting: 'TEST_HEAP_MIB',
      idleTimeoutMs: 1000,
      retryAfterSeconds: 1,
    });
    try {
      await pollUntil(
        async () => (await swallowedErrorsCounter.get()).values.find((value) => value.labels['site'] === site)?.value,
        (value) => value === (before?.value ?? 0) + 1,
      );
    } finally {
      await pool.close();
    }
  });
});
