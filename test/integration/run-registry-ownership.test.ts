import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { type RunRecord, RunRegistry } from '../../shared/orchestration/index.js';
import { QueueKeys } from '../../shared/orchestration/queued.js';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.js';

const TTL_SECONDS = 60;

function recordOf(runId: string, owner: string, workflowId = 'workflow'): RunRecord {
  return {
    pipeline_run_id: runId,
    workflow_id: workflowId,
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
    redis = testRedis({ maxRetriesPerRequest: 1 });
    keys = new QueueKeys(uniquePrefix());
    registry = new RunRegistry(redis, keys, TTL_SECONDS, 100);
  });

  afterEach(async () => {
    redis.disconnect();
    await deletePrefix(keys.prefix);
  });

  describe('claim', () => {
    it('should answer claimed, then in_flight to the owner and taken to anyone else', async () => {
      expect(await registry.claim(recordOf('run', 'alice', 'w1'))).to.equal('claimed');
      expect(await registry.claim(recordOf('run', 'alice', 'w2'))).to.equal('in_flight');
      expect(await registry.claim(recordOf('run', 'bob', 'w3'))).to.equal('taken');
      expect(await redis.get(keys.inFlight('run'))).to.equal('w1');
      expect(await registry.getOwned('run', 'alice')).to.deep.equal(recordOf('run', 'alice', 'w1'));
    });

    it("should keep a finished run's id for its owner only, as long as its record", async () => {
      expect(await registry.claim(recordOf('run', 'alice', 'w1'))).to.equal('claimed');
      await registry.save(recordOf('run', 'alice'));
      await registry.release('run');
      expect(await registry.claim(recordOf('run', 'bob', 'w2'))).to.equal('taken');
      expect(await registry.claim(recordOf('run', 'alice', 'w3'))).to.equal('claimed');
      expect(await redis.ttl(keys.owner('run'))).to.be.within(1, TTL_SECONDS);
    });

    it('should refuse an id whose record has no owner (written before runs had owners)', async () => {
      await redis.set(keys.run('legacy'), JSON.stringify({ pipeline_run_id: 'legacy' }));
      expect(await registry.claim(recordOf('legacy', 'alice', 'w1'))).to.equal('taken');
      expect(await registry.getOwned('legacy', 'alice')).to.equal(undefined);
    });

    it('should let exactly one of many simultaneous claims win', async () => {
      const owners = Array.from({ length: 20 }, (_, index) => `user-${index}`);
      const answers = await Promise.all(
        owners.map((owner, index) => registry.claim(recordOf('contested', owner, `w${index}`))),
      );
      expect(answers.filter((answer) => answer === 'claimed')).to.have.length(1);
      expect(answers.filter((answer) => answer === 'taken')).to.have.length(19);
    });

    it('should line a run with the job offered when every slot of its owner is taken, and only then', async () => {
      const limits = { inFlight: 1, waiting: 10 };
      const offer = (runId: string) => ({ job: `{"job":"${runId}"}`, score: 42 });
      expect(await registry.claim(recordOf('r1', 'alice', 'w1'), limits, offer('r1'))).to.equal('claimed');
      expect(await redis.hlen(keys.gateJobs), 'a run that goes to the queue keeps no offered job').to.equal(0);
      expect(await registry.claim(recordOf('r2', 'alice', 'w2'), limits, offer('r2'))).to.equal('lined');
      expect(await registry.claim(recordOf('r3', 'alice', 'w3'), limits)).to.equal('parked');
      expect(await redis.zrange(keys.gateLine('alice'), '0', '-1', 'WITHSCORES')).to.deep.equal(['r2', '42']);
      expect(await redis.hgetall(keys.gateJobs)).to.deep.equal({ r2: '{"job":"r2"}' });
      // a slot free while runs wait (the limit was raised): the claim leaves it to the park, which fills the slots
      const raised = { inFlight: 2, waiting: 10 };
      expect(await registry.claim(recordOf('r4', 'alice', 'w4'), raised, offer('r4'))).to.equal('parked');
      expect(await redis.hkeys(keys.gateJobs)).to.deep.equal(['r2']);
      const full = { inFlight: 1, waiting: 1 };
      expect(await registry.claim(recordOf('r5', 'alice', 'w5'), full, offer('r5'))).to.equal('full');
      expect(await redis.hkeys(keys.gateJobs)).to.deep.equal(['r2']);
      expect(await redis.exists(keys.run('r5'))).to.equal(0);
    });
  });

  describe('finish', () => {
    it('should store the finished record under its owner and free the id for that owner only', async () => {
      await registry.claim(recordOf('run', 'alice', 'w1'));
      const finished = { ...recordOf('run', 'alice', 'w1'), state: 'COMPLETED' as const };
      await registry.finish(finished);
      expect(await redis.exists(keys.inFlight('run'))).to.equal(0);
      expect(await registry.getOwned('run', 'alice')).to.deep.equal(finished);
      expect(await redis.ttl(keys.run('run'))).to.be.within(1, TTL_SECONDS);
      expect(await registry.claim(recordOf('run', 'bob', 'w2'))).to.equal('taken');
      expect(await registry.claim(recordOf('run', 'alice', 'w3'))).to.equal('claimed');
    });
  });

  describe('finishOnce', () => {
    it("should drop a completed run's step checkpoints with its end, and keep them when not asked to", async () => {
      for (const dropCheckpoints of [true, false]) {
        const runId = `run-${String(dropCheckpoints)}`;
        await registry.claim(recordOf(runId, 'alice', 'w1'));
        await redis.hset(keys.checkpoints(runId), 'main', '{}');
        const finished = { ...recordOf(runId, 'alice', 'w1'), state: 'COMPLETED' as const };
        expect(await registry.finishOnce(finished, { release: true, dropCheckpoints })).to.equal('recorded');
        expect(await redis.exists(keys.checkpoints(runId)), `dropCheckpoints ${String(dropCheckpoints)}`).to.equal(
          dropCheckpoints ? 0 : 1,
        );
      }
    });

    it('should drop no checkpoint with an end it refuses', async () => {
      await registry.claim(recordOf('run', 'alice', 'w1'));
      const failed = { ...recordOf('run', 'alice', 'w1'), state: 'FAILED' as const };
      expect(await registry.finishOnce(failed, { release: true })).to.equal('recorded');
      await redis.hset(keys.checkpoints('run'), 'main', '{}');
      const completed = { ...recordOf('run', 'alice', 'w1'), state: 'COMPLETED' as const };
      expect(await registry.finishOnce(completed, { release: true, dropCheckpoints: true })).to.equal(
        'already_finished',
      );
      expect(await redis.hget(keys.checkpoints('run'), 'main')).to.equal('{}');
    });
  });

  describe('abandon', () => {
    it('should free the id and drop the record and owner the claim stored', async () => {
      await registry.claim(recordOf('fresh', 'alice', 'w1'));
      expect(await registry.getOwned('fresh', 'alice')).to.deep.equal(recordOf('fresh', 'alice', 'w1'));
      await registry.abandon('fresh');
      expect(await registry.getOwned('fresh', 'alice')).to.equal(undefined);
      expect(await registry.claim(recordOf('fresh', 'bob', 'w2'))).to.equal('claimed');
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
      await registry.finishOnce({ ...recordOf('run', 'alice'), state: 'COMPLETED' }, { release: false });
      expect(await registry.getOwned('run', 'alice')).to.include({ state: 'COMPLETED', owner: 'alice' });
      await registry.forget('run');
      expect(await redis.exists(keys.run('run'), keys.owner('run'))).to.equal(0);
    });
  });
});
