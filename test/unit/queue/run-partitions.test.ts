/**
 * Run partitions (docs/redis.md#sharded-run-queues): each partition's prefix, a run's partition from its id, and the
 * partitions a process serves while the count changes.
 */
import { expect } from 'chai';
import { loadSettings } from '../../../shared/config/index.js';
import {
  partitionPrefix,
  partitionSettings,
  runIdOfJob,
  runJobId,
  runPartition,
  servedPartitions,
} from '../../../shared/orchestration/queued.js';

describe('run partitions', () => {
  it('should keep the prefix for partition 0 and add .p<n> inside the hash tag, or after a plain prefix', () => {
    expect(partitionPrefix('{mthds}', 0)).to.equal('{mthds}');
    expect(partitionPrefix('{mthds}', 2)).to.equal('{mthds.p2}');
    expect(partitionPrefix('mthds', 1)).to.equal('mthds.p1');
  });

  it('should put every run in partition 0 of one, and spread run ids about evenly over several', () => {
    expect(runPartition('any-run', 1)).to.equal(0);
    const counts = [0, 0, 0];
    for (let index = 0; index < 3000; index += 1) counts[runPartition(`run-${index}`, 3)]! += 1;
    for (const count of counts) expect(count).to.be.within(900, 1100);
    expect(runPartition('run-7', 3)).to.equal(runPartition('run-7', 3));
  });

  it('should find the run id of each run job id', () => {
    for (const runId of ['plain-id', '42', 'with:colon', '~tilde']) expect(runIdOfJob(runJobId(runId))).to.equal(runId);
  });

  it('should serve the larger of the current and previous counts, each partition as a deployment of one', () => {
    const settings = loadSettings({
      QUEUE_PREFIX: '{m}',
      RUN_QUEUE_PARTITIONS: '3',
      RUN_QUEUE_PARTITIONS_PREVIOUS: '5',
    });
    expect(servedPartitions(settings)).to.equal(5);
    expect(servedPartitions(loadSettings({ RUN_QUEUE_PARTITIONS: '4' }))).to.equal(4);
    expect(servedPartitions(loadSettings({}))).to.equal(1);
    const part = partitionSettings(settings, 4).queue;
    expect(part).to.include({
      prefix: '{m.p4}',
      sharedPrefix: '{m}',
      runQueuePartitions: 1,
      runQueuePartitionsPrevious: undefined,
    });
  });
});
