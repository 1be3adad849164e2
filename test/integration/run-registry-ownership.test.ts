import { expect } from 'chai';
import { Redis } from 'ioredis';
import { QueueKeys, type RunRecord, RunRegistry } from '../../shared/orchestration/index.js';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const TTL_SECONDS = 60;

function recordOf(runId: string, owner: string): RunRecord {
  return {
    pipeline_run_id: runId,
    workflow_id: 'workflow',
    state: 'STARTED',
    pipe_code: null,
    owner,
    storage_scope: owner,
    request_id: 'request',
    created_at: '2024-01-01T00:00:00.000Z',
    started_at: null,
    finished_at: null,
  };
}

describe('RunRegistry ownership (real Redis)', () => {
  let redis: Redis;
  let keys: QueueKeys;
  let registry: RunRegistry;

  beforeEach(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    keys = new QueueKeys(uniquePrefix());
    registry = new RunRegistry(redis, keys, TTL_SECONDS);
  });

  afterEach(async () => {
    redis.disconnect();
    await deletePrefix(keys.prefix);
  });

  describe('claim', () => {
    it('should answer claimed, then in_flight to the owner and taken to anyone else', async () => {
      expect(await registry.claim('run', 'w1', 'alice')).to.equal('claimed');
      expect(await registry.claim('run', 'w2', 'alice')).to.equal('in_flight');
      expect(await registry.claim('run', 'w3', 'bob')).to.equal('taken');
      expect(await redis.get(keys.inFlight('run'))).to.equal('w1');
    });

    it("should keep a finished run's id for its owner only, as long as its record", async () => {
      expect(await registry.claim('run', 'w1', 'alice')).to.equal('claimed');
      await registry.save(recordOf('run', 'alice'));
      await registry.release('run');
      expect(await registry.claim('run', 'w2', 'bob')).to.equal('taken');
      expect(await registry.claim('run', 'w3', 'alice')).to.equal('claimed');
      expect(await redis.ttl(keys.owner('run'))).to.be.within(1, TTL_SECONDS);
    });

    it('should refuse an id whose record has no owner (written before runs had owners)', async () => {
      await redis.set(keys.run('legacy'), JSON.stringify({ pipeline_run_id: 'legacy' }));
      expect(await registry.claim('legacy', 'w1', 'alice')).to.equal('taken');
      expect(await registry.getOwned('legacy', 'alice')).to.equal(undefined);
    });

    it('should let exactly one of many simultaneous claims win', async () => {
      const owners = Array.from({ length: 20 }, (_, index) => `user-${index}`);
      const answers = await Promise.all(owners.map((owner, index) => registry.claim('contested', `w${index}`, owner)));
      expect(answers.filter((answer) => answer === 'claimed')).to.have.length(1);
      expect(answers.filter((answer) => answer === 'taken')).to.have.length(19);
    });
  });

  describe('abandon', () => {
    it('should free an id nobody ran, and keep an owner whose earlier record stands', async () => {
      await registry.claim('fresh', 'w1', 'alice');
      await registry.abandon('fresh');
      expect(await registry.claim('fresh', 'w2', 'bob')).to.equal('claimed');

      await registry.save(recordOf('kept', 'alice'));
      await registry.claim('kept', 'w3', 'alice');
      await registry.abandon('kept');
      expect(await registry.claim('kept', 'w4', 'bob')).to.equal('taken');
      expect(await registry.getOwned('kept', 'alice')).to.deep.equal(recordOf('kept', 'alice'));
    });
  });

  describe('getOwned', () => {
    it('should answer the owner with the record and anyone else as for an unknown id', async () => {
      await registry.save(recordOf('run', 'alice'));
      expect(await registry.getOwned('run', 'alice')).to.deep.equal(recordOf('run', 'alice'));
      expect(await registry.getOwned('run', 'bob')).to.equal(undefined);
      expect(await registry.getOwned('unknown', 'bob')).to.equal(undefined);
    });

    it('should keep the owner through updates and drop it with the record', async () => {
      await registry.save(recordOf('run', 'alice'));
      await registry.update('run', { state: 'COMPLETED' });
      expect(await registry.getOwned('run', 'alice')).to.include({ state: 'COMPLETED', owner: 'alice' });
      await registry.forget('run');
      expect(await redis.exists(keys.run('run'), keys.owner('run'))).to.equal(0);
    });
  });
});
