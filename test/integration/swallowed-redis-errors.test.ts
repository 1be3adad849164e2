import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { expect } from 'chai';
import { pino } from 'pino';
import { swallowedErrors, swallowedErrorsCounter } from '../../shared/observability/index.js';
import { JobSeals, openRedis, QueueKeys, RunQueue } from '../../shared/orchestration/queued.js';
import { TEST_REDIS_TARGET, uniquePrefix } from '../helpers/redis.js';

/** A port nothing listens on: a server's on port 0, closed. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** What the process's counter holds for a site now. */
async function counted(site: string): Promise<number> {
  return (await swallowedErrorsCounter.get()).values.find((value) => value.labels['site'] === site)?.value ?? 0;
}

describe('swallowed errors of real Redis connections', () => {
  const lines: Record<string, unknown>[] = [];
  let previous: ReturnType<typeof swallowedErrors.useLogger>;

  beforeEach(() => {
    lines.length = 0;
    // the process's reporter: end any outage an earlier suite left at these sites, then keep its lines here
    for (const site of ['redis:producer', 'redis:reader', 'run-queue']) swallowedErrors.recovered(site);
    previous = swallowedErrors.useLogger(
      pino({ level: 'info', base: null, timestamp: false }, { write: (line: string) => lines.push(JSON.parse(line)) }),
    );
  });

  afterEach(() => {
    swallowedErrors.useLogger(previous);
  });

  it('should count every failed connection attempt to a closed port at its site, and log the first', async () => {
    const port = await closedPort();
    const [redisBefore, queueBefore] = [await counted('redis:producer'), await counted('run-queue')];
    const redis = openRedis({ url: `redis://127.0.0.1:${port}` }, 'producer');
    const keys = new QueueKeys(uniquePrefix());
    const queue = new RunQueue({
      connection: redis,
      eventsConnection: () => redis,
      keys,
      seals: new JobSeals(redis, keys),
      maxAttempts: 1,
      keepSeconds: 60,
    });
    const relayed = once(queue.queue, 'error');
    try {
      // three attempts (ioredis retries a producer connection after 100, 200, 300 ms); the process carries on
      for (let attempt = 0; attempt < 3; attempt += 1) await once(redis, 'error');
      await relayed;
      expect(await counted('redis:producer')).to.be.at.least(redisBefore + 3);
      expect(await counted('run-queue')).to.be.greaterThan(queueBefore);
      const warned = lines.filter((line) => line['site'] === 'redis:producer');
      expect(warned).to.have.length(1);
      expect(warned[0]).to.include({ level: 40, code: 'ECONNREFUSED' });
      expect(warned[0]).not.to.have.property('stack');
    } finally {
      redis.disconnect();
    }
  });

  it('should end the outage of a site when one of its connections is ready', async () => {
    swallowedErrors.report('redis:reader', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const redis = openRedis(TEST_REDIS_TARGET, 'reader');
    try {
      await once(redis, 'ready');
      expect(lines.map((line) => [line['level'], line['site'], line['errors']])).to.deep.equal([
        [40, 'redis:reader', undefined],
        [30, 'redis:reader', 1],
      ]);
    } finally {
      redis.disconnect();
    }
  });
});
