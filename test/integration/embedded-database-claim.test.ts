/**
 * One API process per deployment on the embedded control-plane database (docs/control-plane.md#where-it-lives): the
 * lease in the deployment's Redis.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { SettingsError } from '../../shared/config/index.js';
import { claimEmbeddedDatabase } from '../../shared/orchestration/queue/embedded-database-claim.js';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.js';

describe('the embedded database lease in Redis', () => {
  const prefix = uniquePrefix();
  const key = `${prefix}:control-plane:embedded-holder`;
  let redis: Redis;
  before(() => {
    redis = testRedis();
  });
  after(async () => {
    await deletePrefix(prefix);
    redis.disconnect();
  });

  it('should refuse a second API process with one line naming DATABASE_URL and the holder, then admit it once released', async () => {
    const release = await claimEmbeddedDatabase(redis, key);
    const holder = await redis.get(key);
    expect(holder).to.match(/^.+:\d+:[0-9a-f]{8}$/);
    expect(await redis.pttl(key)).to.be.within(1, 20_000);

    const refusal = await claimEmbeddedDatabase(redis, key).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).to.be.instanceOf(SettingsError);
    expect((refusal as Error).message).to.equal(
      `Invalid configuration, refusing to start: DATABASE_URL: required for more than one API process: another API process of this deployment (${holder}) uses the embedded database (set DATABASE_URL to a PostgreSQL server shared by every API process)`,
    );
    expect(await redis.get(key)).to.equal(holder);

    await release();
    expect(await redis.exists(key)).to.equal(0);
    const again = await claimEmbeddedDatabase(redis, key);
    expect(await redis.get(key)).to.not.equal(holder);
    await again();
  });

  it("should not drop a lease that another process took after this one's lapsed", async () => {
    const release = await claimEmbeddedDatabase(redis, key);
    await redis.set(key, 'another-host:1:00000000');
    await release();
    expect(await redis.get(key)).to.equal('another-host:1:00000000');
    await redis.del(key);
  });
});
