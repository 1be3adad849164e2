/**
 * Changing the run partition count with no downtime (docs/redis.md#changing-the-partition-count): runs queued by a
 * deployment of one partition, with no worker running, complete once the deployment runs three partitions with the
 * previous count of one, and read as completed through it; its new runs live in their own partitions.
 */
import { expect } from 'chai';
import request from 'supertest';
import { partitionPrefix, runPartition } from '../../shared/orchestration/queued.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { startQueueDeployment } from '../helpers/queue-app.js';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.js';

const RUNS = 9;

describe('run partitions: from one to three with no downtime', function () {
  this.timeout(60_000);
  const prefix = `{${uniquePrefix()}}`;

  after(async () => {
    for (let index = 0; index < 3; index += 1) await deletePrefix(partitionPrefix(prefix, index));
  });

  it('should complete the runs queued under one partition and keep the new runs in theirs', async () => {
    const start = async (app: Parameters<typeof request>[0]) => {
      const ids: string[] = [];
      for (let index = 0; index < RUNS; index += 1) {
        const answer = await request(app)
          .post('/v1/start')
          .send({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } })
          .expect(202);
        ids.push(answer.body.pipeline_run_id as string);
      }
      return ids;
    };
    const completed = (app: Parameters<typeof request>[0], ids: string[]) =>
      pollUntil(
        () => Promise.all(ids.map(async (id) => (await request(app).get(`/v1/runs/${id}/status`)).body.state)),
        (states) => states.every((state) => state === 'COMPLETED'),
        30_000,
        50,
      );
    const before = startQueueDeployment({ environment: { QUEUE_PREFIX: prefix }, workers: false });
    const earlier = await start(before.app);
    await before.close();
    const after = startQueueDeployment({
      environment: { QUEUE_PREFIX: prefix, RUN_QUEUE_PARTITIONS: '3', RUN_QUEUE_PARTITIONS_PREVIOUS: '1' },
    });
    const redis = testRedis();
    try {
      await completed(after.app, earlier);
      const later = await start(after.app);
      await completed(after.app, later);
      const partitions = later.map((id) => runPartition(id, 3));
      const kept = await Promise.all(
        later.map((id, index) => redis.exists(`${partitionPrefix(prefix, partitions[index]!)}:run:${id}`)),
      );
      expect(kept).to.deep.equal(later.map(() => 1));
      expect(new Set(partitions).size, 'partitions used').to.be.above(1);
    } finally {
      redis.disconnect();
      await after.close();
    }
  });
});
