import { expect } from 'chai';
import { ReplyError } from 'ioredis';
import { MaxRetriesPerRequestError } from 'ioredis/built/errors/index.js';
import { QueueUnavailableError } from '../../../shared/errors/index.js';
import { RunRegistry } from '../../../shared/orchestration/index.js';
import { isQueueOutage, whenQueueReachable } from '../../../shared/orchestration/queue/queue-outage.js';
import { openRedis, QueueKeys } from '../../../shared/orchestration/queued.js';
import { problemFor } from '../../helpers/problem.js';
import { TEST_REDIS_TARGET, uniquePrefix } from '../../helpers/redis.js';

function refused(): NodeJS.ErrnoException {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
}

describe('queue outage classification', () => {
  describe('when the failure is a Redis outage', () => {
    for (const [name, error] of [
      ['a refused connection', refused()],
      ['ioredis giving up on a command', new MaxRetriesPerRequestError(1)],
      ['a command timeout', new Error('Command timed out')],
      ['a closed connection', new Error('Connection is closed.')],
      ['a LOADING reply', new ReplyError('LOADING Redis is loading the dataset in memory')],
      ['a READONLY reply', new ReplyError("READONLY You can't write against a read only replica.")],
      ['a refused password', new ReplyError('WRONGPASS invalid username-password pair or user is disabled.')],
      ['a missing password', new ReplyError('NOAUTH Authentication required.')],
      ['a cluster without a master for the slot', new ReplyError('CLUSTERDOWN The cluster is down')],
      [
        'a cluster client giving up after its redirections (a failover)',
        new Error('Too many Cluster redirections. Last error: Error: connect ECONNREFUSED 127.0.0.1:7000'),
      ],
      [
        'a command the ACL user may not run',
        new ReplyError("NOPERM User runner has no permissions to run the 'eval' command"),
      ],
    ] as const) {
      it(`should classify ${name} as an outage`, () => {
        expect(isQueueOutage(error)).to.equal(true);
      });
    }
  });

  describe('when the failure is not an outage', () => {
    for (const [name, error] of [
      ['a RangeError from JSON.stringify', new RangeError('Maximum call stack size exceeded')],
      ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'x')")],
      ['a WRONGTYPE reply', new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value')],
      ['a thrown string', 'boom'],
    ] as const) {
      it(`should not classify ${name} as an outage`, () => {
        expect(isQueueOutage(error)).to.equal(false);
      });
    }
  });

  describe('whenQueueReachable', () => {
    it('should turn an outage into a retryable 503 QueueUnavailableError', async () => {
      const failure = await whenQueueReachable(
        () => Promise.reject(refused()),
        (reason) => `down: ${reason}`,
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).to.be.instanceOf(QueueUnavailableError);
      expect(failure).to.include({
        error_type: 'QueueUnavailableError',
        retryable: true,
        message: 'down: connect ECONNREFUSED 127.0.0.1:1',
      });
      expect(problemFor(failure)).to.include({ status: 503, error_type: 'QueueUnavailableError', retryable: true });
    });

    it('should rethrow any other error unchanged', async () => {
      const thrown = new RangeError('Maximum call stack size exceeded');
      const failure = await whenQueueReachable(
        () => Promise.reject(thrown),
        (reason) => reason,
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).to.equal(thrown);
    });
  });

  describe('RunRegistry', () => {
    const record = {
      pipeline_run_id: 'r1',
      workflow_id: 'w1',
      state: 'STARTED',
      pipe_code: null,
      request_id: 'q',
      created_at: '',
      started_at: null,
      finished_at: null,
      owner: 'single-tenant',
      storage_scope: 'single-tenant',
    } as const;

    it('should not report a record that cannot be serialised as a queue outage (real Redis, up)', async () => {
      const redis = openRedis(TEST_REDIS_TARGET, 'producer');
      try {
        const registry = new RunRegistry(redis, new QueueKeys(uniquePrefix()), 60, 100);
        let deep: unknown = 1;
        for (let level = 0; level < 20_000; level += 1) deep = { a: deep };
        const failure = await registry.save({ ...record, result: deep as never }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).to.be.instanceOf(RangeError);
      } finally {
        redis.disconnect();
      }
    });

    it('should report a refused connection as a queue outage (a real client on a closed port)', async () => {
      const redis = openRedis({ url: 'redis://127.0.0.1:1' }, 'producer');
      try {
        const registry = new RunRegistry(redis, new QueueKeys(uniquePrefix()), 60, 100);
        const failure = await registry.save(record).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).to.be.instanceOf(QueueUnavailableError);
      } finally {
        redis.disconnect();
      }
    });
  });
});
