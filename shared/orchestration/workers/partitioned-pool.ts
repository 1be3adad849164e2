/**
 * The workers of a process on sharded run queues (docs/redis.md#sharded-run-queues): one worker pool per partition
 * served — the current count's and, while it changes, the previous count's — each on the partition's own queues, run
 * records and gate, and each with its share of the process's concurrency (`ceil(concurrency / partitions)`), so a
 * process runs about as many jobs at once as with one partition.
 */
import { partitionSettings, servedPartitions } from '../queue/index.js';
import type { Liveness } from './worker-liveness.js';
import { startWorkerPool, type WorkerPool, type WorkerPoolDeps } from './worker-pool.js';

/**
 * Start the workers: one pool as {@link startWorkerPool} starts it, or one per partition.
 * @param deps - settings, logger, metrics, inference and the secret reader
 * @returns the pool; with partitions, its `runWorker`, `childWorker` and `callbackWorker` are partition 0's
 */
export function startPartitionedWorkers(deps: WorkerPoolDeps): WorkerPool {
  const served = servedPartitions(deps.settings);
  if (served === 1) return startWorkerPool(deps);
  const { worker, fanOut } = deps.settings;
  const share = (concurrency: number) => Math.ceil(concurrency / served);
  const pools = Array.from({ length: served }, (_, index) => {
    const settings = partitionSettings(deps.settings, index);
    return startWorkerPool({
      ...deps,
      settings: {
        ...settings,
        worker: { ...worker, concurrency: share(worker.concurrency) },
        fanOut: { ...fanOut, workerConcurrency: share(fanOut.workerConcurrency) },
      },
    });
  });
  const first = pools[0]!;
  for (const queued of [first.runWorker, first.childWorker, first.callbackWorker])
    deps.metrics.workerConcurrency.set({ queue: queued.name }, queued.concurrency * served);
  return {
    runWorker: first.runWorker,
    callbackWorker: first.callbackWorker,
    childWorker: first.childWorker,
    async liveness(): Promise<Liveness> {
      const checks = await Promise.all(pools.map((pool) => pool.liveness()));
      return checks.find((check) => !check.live) ?? checks[0]!;
    },
    async close() {
      await Promise.all(pools.map((pool) => pool.close()));
    },
  };
}
