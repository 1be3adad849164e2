/**
 * Sharded run queues (docs/redis.md#sharded-run-queues): with `RUN_QUEUE_PARTITIONS` above 1, the API's queue backend
 * is one backend per partition — each its run, child and callback queues, run records, events, checkpoints, dispatch
 * gate and history outbox under the partition's own hash tag ({@link partitionPrefix}) — behind one that sends each
 * run to its partition ({@link runPartition} of its id). A run is made in its partition under the current count;
 * while the count changes (`RUN_QUEUE_PARTITIONS_PREVIOUS`), a run of the earlier count is looked for there too.
 *
 * An owner's dispatch limits are shared out over the partitions (`ceil(limit / partitions)` in each), since its runs
 * spread over them (docs/fair-dispatch.md#partitions).
 */
import { randomUUID } from 'node:crypto';
import type { Settings } from '../config/index.js';
import type { JobCounter, QueueHeadReader } from '../observability/index.js';
import type { RunRef, RunStopState } from './control/index.js';
import { RunControls } from './control/index.js';
import type { LoggedRunEvent, RunEventLog } from './events/index.js';
import type { DispatchPolicy } from './fairness/index.js';
import { partitionSettings, runIdOfJob, runPartition, servedPartitions } from './queue/index.js';
import { openQueueBackend, type QueueBackend } from './queue-backend.js';
import type { HistoryMark, RunRecord } from './registry/index.js';

/** A dispatch policy whose limits are an owner's share in one partition of `count`. */
function sharedOut(policy: DispatchPolicy, count: number): DispatchPolicy {
  return {
    async termsOf(owner) {
      const terms = await policy.termsOf(owner);
      const { inFlight, waiting } = terms.limits;
      return { ...terms, limits: { inFlight: Math.ceil(inFlight / count), waiting: Math.ceil(waiting / count) } };
    },
  };
}

/** A random UUID that falls in partition `index` of `count` (`count` draws on average). */
function idIn(index: number, count: number): string {
  for (;;) {
    const id = randomUUID();
    if (runPartition(id, count) === index) return id;
  }
}

/** Sum each state's count over partitions. */
function summed(counters: JobCounter[]): JobCounter {
  return async () => {
    const total: Record<string, number> = {};
    for (const counts of await Promise.all(counters.map((counter) => counter())))
      for (const [state, count] of Object.entries(counts)) total[state] = (total[state] ?? 0) + count;
    return total;
  };
}

/** The earliest head over partitions. */
function earliest(readers: QueueHeadReader[]): QueueHeadReader {
  return async () => {
    const heads = (await Promise.all(readers.map((reader) => reader()))).filter((head) => head !== undefined);
    return heads.length === 0 ? undefined : Math.min(...heads);
  };
}

/**
 * Open the API's queue backend: one partition's as {@link openQueueBackend} makes it, or the partitions' behind one.
 * @param settings - the deployment's
 */
export function openPartitionedBackend(settings: Settings): QueueBackend {
  const served = servedPartitions(settings);
  if (served === 1) return openQueueBackend(settings);
  const count = settings.queue.runQueuePartitions;
  const previous = settings.queue.runQueuePartitionsPrevious ?? count;
  const controls = new RunControls();
  const parts = Array.from({ length: served }, (_, index) =>
    openQueueBackend(partitionSettings(settings, index), controls),
  );
  const first = parts[0]!;
  const home = (runId: string) => parts[runPartition(runId, count)]!;
  /** The partition holding a run: its partition under the current count, or under the previous one if it is there. */
  const locate = async (runId: string): Promise<QueueBackend> => {
    const current = runPartition(runId, count);
    const earlier = runPartition(runId, previous);
    if (current === earlier || (await parts[current]!.registry.get(runId))) return parts[current]!;
    return (await parts[earlier]!.registry.get(runId)) ? parts[earlier]! : parts[current]!;
  };
  const origins = new WeakMap<HistoryMark, QueueBackend>();
  let turn = 0;
  const registry: QueueBackend['registry'] = {
    claim: (record, limits, offer) => home(record.pipeline_run_id).registry.claim(record, limits, offer),
    abandon: async (runId) => (await locate(runId)).registry.abandon(runId),
    release: async (runId) => (await locate(runId)).registry.release(runId),
    forget: async (runId) => (await locate(runId)).registry.forget(runId),
    admit: async (running) => (await locate(running.pipeline_run_id)).registry.admit(running),
    save: async (record) => (await locate(record.pipeline_run_id)).registry.save(record),
    finish: async (record) => (await locate(record.pipeline_run_id)).registry.finish(record),
    get: async (runId) => (await locate(runId)).registry.get(runId),
    getOwned: async (runId, owner) => (await locate(runId)).registry.getOwned(runId, owner),
    finishOnce: async (finished, options) =>
      (await locate(finished.pipeline_run_id)).registry.finishOnce(finished, options),
    // each call starts at the next partition, so a busy one does not hold the others' marks back
    async pendingHistory(limit) {
      const marks: HistoryMark[] = [];
      const records: (RunRecord | undefined)[] = [];
      turn = (turn + 1) % parts.length;
      for (const part of [...parts.slice(turn), ...parts.slice(0, turn)]) {
        if (marks.length >= limit) break;
        const pending = await part.registry.pendingHistory(limit - marks.length);
        for (const mark of pending.marks) origins.set(mark, part);
        marks.push(...pending.marks);
        records.push(...pending.records);
      }
      return { marks, records };
    },
    async settleHistory(marks) {
      await Promise.all(
        parts.map((part) =>
          part.registry.settleHistory(marks.filter((mark) => (origins.get(mark) ?? home(mark.runId)) === part)),
        ),
      );
    },
    historyBacklog: async () =>
      (await Promise.all(parts.map((part) => part.registry.historyBacklog()))).reduce((sum, n) => sum + n, 0),
    leaseHistoryWriter: (holder, ttlMs) => first.registry.leaseHistoryWriter(holder, ttlMs),
  };
  const events: RunEventLog = {
    append: async (runId, appended, progress) => (await locate(runId)).events.append(runId, appended, progress),
    progress: async (runId) => (await locate(runId)).events.progress(runId),
    async *follow(runId, options): AsyncGenerator<LoggedRunEvent, void> {
      yield* (await locate(runId)).events.follow(runId, options);
    },
  };
  /** Runs grouped by the partition holding each. */
  const byPartition = async <T>(items: readonly T[], runIdOf: (item: T) => string) => {
    const groups = new Map<QueueBackend, T[]>();
    const located = await Promise.all(items.map((item) => locate(runIdOf(item))));
    for (const [index, item] of items.entries()) {
      const part = located[index]!;
      const group = groups.get(part);
      if (group) group.push(item);
      else groups.set(part, [item]);
    }
    return groups;
  };
  return {
    // the dashboard and the metrics see every partition's; these are partition 0's, where a stop's callbacks go
    runQueue: first.runQueue,
    callbackQueue: first.callbackQueue,
    childQueue: first.childQueue,
    registry,
    events,
    queues: parts.flatMap((part) => part.queues),
    controls,
    stops: {
      async announce(runs: readonly RunRef[], state: RunStopState) {
        const groups = await byPartition(runs, (run) => run.pipelineRunId);
        await Promise.all([...groups].map(([part, group]) => part.stops.announce(group, state)));
      },
    },
    runJobs: {
      async payloads(jobIds) {
        const groups = await byPartition(jobIds, runIdOfJob);
        const found = new Map<string, Awaited<ReturnType<QueueBackend['runJobs']['payloads']>>[number]>();
        for (const [part, group] of groups) {
          const payloads = await part.runJobs.payloads(group);
          for (const [index, jobId] of group.entries()) found.set(jobId, payloads[index]);
        }
        return jobIds.map((jobId) => found.get(jobId));
      },
      async removeWaiting(jobIds) {
        const groups = await byPartition(jobIds, runIdOfJob);
        await Promise.all([...groups].map(([part, group]) => part.runJobs.removeWaiting(group)));
      },
    },
    catalogChanges: first.catalogChanges,
    orchestrator(deps) {
      const orchestrators = parts.map((part) => part.orchestrator({ ...deps, policy: sharedOut(deps.policy, count) }));
      const of = (runId: string) => orchestrators[runPartition(runId, count)]!;
      return {
        mode: orchestrators[0]!.mode,
        execute: (submission, signal) => of(submission.pipelineRunId).execute(submission, signal),
        start: (submission) => of(submission.pipelineRunId).start!(submission),
      };
    },
    retrier(deps) {
      const retriers = parts
        .slice(0, count)
        .map((part, index) =>
          part.retrier({ ...deps, policy: sharedOut(deps.policy, count), newRunId: () => idIn(index, count) }),
        );
      // a retry goes to a partition of the current count, at random, under an id of that partition
      return {
        retry: (original, requestId) => retriers[Math.floor(Math.random() * count)]!.retry(original, requestId),
      };
    },
    watch(metrics) {
      const counters = new Map<string, JobCounter[]>();
      const heads = new Map<string, QueueHeadReader[]>();
      for (const part of parts)
        part.watch({
          watchQueue: (name, counter) => counters.set(name, [...(counters.get(name) ?? []), counter]),
          watchQueueAge: (name, head) => heads.set(name, [...(heads.get(name) ?? []), head]),
        });
      for (const [name, list] of counters) metrics.watchQueue(name, summed(list));
      for (const [name, list] of heads) metrics.watchQueueAge(name, earliest(list));
    },
    claimEmbeddedDatabase: () => first.claimEmbeddedDatabase(),
    async reachable(timeoutMs) {
      return (await Promise.all(parts.map((part) => part.reachable(timeoutMs)))).every(Boolean);
    },
    async close() {
      await Promise.all(parts.map((part) => part.close()));
    },
  };
}
