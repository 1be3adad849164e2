/**
 * The run partitions a process serves (docs/redis.md#sharded-run-queues): the settings of each, as a deployment of one
 * partition under the partition's prefix.
 */
import type { Settings } from '../../config/index.js';
import { partitionPrefix } from './queue-keys.js';

/**
 * The settings of one partition: its prefix, as one partition of its own, and the deployment's prefix as the shared
 * one (the provider rate limits stay under it).
 * @param settings - the deployment's
 * @param index - the partition, from 0
 */
export function partitionSettings(settings: Settings, index: number): Settings {
  const queue = {
    ...settings.queue,
    prefix: partitionPrefix(settings.queue.prefix, index),
    sharedPrefix: settings.queue.sharedPrefix ?? settings.queue.prefix,
    runQueuePartitions: 1,
    runQueuePartitionsPrevious: undefined,
  };
  return { ...settings, queue };
}

/**
 * How many partitions the processes serve: the current count and, while it changes, the previous one.
 * @param settings - the deployment's
 */
export function servedPartitions(settings: Settings): number {
  const { runQueuePartitions, runQueuePartitionsPrevious } = settings.queue;
  return Math.max(runQueuePartitions, runQueuePartitionsPrevious ?? 1);
}
