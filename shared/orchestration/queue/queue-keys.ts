/**
 * The one place Redis names are built (CONTRIBUTING.md#8-one-place-for-redis-names): queue names, the BullMQ prefix and
 * the run registry keys.
 * Every key starts with the deployment's `QUEUE_PREFIX`, so several deployments and test runs share one Redis.
 */

import { createHash } from 'node:crypto';

/** Queue of run jobs. */
export const RUN_QUEUE = 'runs';
/** Queue of the child jobs of fanned-out runs (docs/fan-out.md): its own, so waiting parents never hold its slots. */
export const CHILD_QUEUE = 'run-children';
/** Queue of completion-callback deliveries. */
export const CALLBACK_QUEUE = 'callbacks';

/**
 * The key prefix of a run partition (docs/redis.md#sharded-run-queues): partition 0's is the deployment's prefix itself
 * (so one partition keeps today's keys), partition `n`'s adds `.p<n>` inside the hash tag (`{mthds}` → `{mthds.p1}`),
 * or after a plain prefix, so each partition's keys share a slot of their own.
 * @param prefix - `QUEUE_PREFIX`
 * @param index - the partition, from 0
 */
export function partitionPrefix(prefix: string, index: number): string {
  if (index === 0) return prefix;
  return prefix.endsWith('}') ? `${prefix.slice(0, -1)}.p${index}}` : `${prefix}.p${index}`;
}

/**
 * The partition of a run among `count`: the first four bytes of the SHA-256 digest of its id, modulo `count`, so every
 * process of the deployment finds it alike.
 * @param runId - a `pipeline_run_id`
 * @param count - partitions (`RUN_QUEUE_PARTITIONS`)
 * @returns 0 to `count - 1`
 */
export function runPartition(runId: string, count: number): number {
  if (count === 1) return 0;
  return createHash('sha256').update(runId).digest().readUInt32BE(0) % count;
}

/** Key builder of one deployment. */
export class QueueKeys {
  constructor(readonly prefix: string) {}

  /** BullMQ's `prefix` option. */
  get bullPrefix(): string {
    return `${this.prefix}:bull`;
  }

  /**
   * The API process using the embedded control-plane database, one per deployment
   * (docs/control-plane.md#where-it-lives).
   */
  get embeddedDatabaseHolder(): string {
    return `${this.prefix}:control-plane:embedded-holder`;
  }

  /** The key that seals the deployment's queue jobs (`job-seals.ts`; docs/run-ownership.md#queue-jobs). */
  get sealKey(): string {
    return `${this.prefix}:job-seal-key`;
  }

  /**
   * The run record (state, timestamps, result or error).
   * @param runId - a `pipeline_run_id`
   */
  run(runId: string): string {
    return `${this.prefix}:run:${runId}`;
  }

  /**
   * The in-flight marker of a run id (spec §3 run id rules).
   * @param runId - a `pipeline_run_id`
   */
  inFlight(runId: string): string {
    return `${this.prefix}:inflight:${runId}`;
  }

  /**
   * The owner of a run id: the caller that claimed it, kept as long as its run record (docs/run-ownership.md).
   * @param runId - a `pipeline_run_id`
   */
  owner(runId: string): string {
    return `${this.prefix}:owner:${runId}`;
  }

  /**
   * The event stream of a run (a Redis Stream, docs/run-events.md), kept as long as its record.
   * @param runId - a `pipeline_run_id`
   */
  events(runId: string): string {
    return `${this.prefix}:events:${runId}`;
  }

  /**
   * The progress of a run (its current pipe and finished pipes, docs/run-events.md), kept as long as its record.
   * @param runId - a `pipeline_run_id`
   */
  progress(runId: string): string {
    return `${this.prefix}:progress:${runId}`;
  }

  /**
   * The step checkpoints of a run (a hash: step path → checkpoint, docs/checkpoints.md), kept as long as its record.
   * @param runId - a `pipeline_run_id`
   */
  checkpoints(runId: string): string {
    return `${this.prefix}:checkpoints:${runId}`;
  }

  /**
   * The pub/sub channel of run stops (docs/cancellation.md#how-a-run-stops): every API and worker process of the
   * deployment listens on it for the runs to abort.
   */
  get runStops(): string {
    return `${this.prefix}:run-stops`;
  }

  /**
   * The pub/sub channel of catalog changes (docs/mcp.md#tool-list-changes): every API process listens on it for the
   * owners whose tool list changed.
   */
  get catalogChanges(): string {
    return `${this.prefix}:catalog-changes`;
  }

  /**
   * The history outbox (docs/control-plane.md#the-history-outbox): a sorted set of the run ids whose record changed
   * since the history last wrote them, each scored by the {@link historySequence} value of its latest change.
   */
  get historyOutbox(): string {
    return `${this.prefix}:history:outbox`;
  }

  /** The counter that scores the history outbox's marks. */
  get historySequence(): string {
    return `${this.prefix}:history:sequence`;
  }

  /**
   * The runs of an owner admitted to the run queue and not finished yet (a sorted set of run ids scored by their
   * admission time in ms; docs/fair-dispatch.md).
   * @param owner - a run owner (its organization)
   */
  gateInFlight(owner: string): string {
    return `${this.prefix}:gate:in-flight:${owner}`;
  }

  /**
   * The owner's waiting line: its runs held before the run queue while it is at its in-flight limit (a sorted set of
   * run ids scored by priority, then arrival; docs/fair-dispatch.md).
   * @param owner - a run owner (its organization)
   */
  gateLine(owner: string): string {
    return `${this.prefix}:gate:line:${owner}`;
  }

  /** The sealed jobs of the runs in waiting lines or being dispatched (a hash: run id → job JSON). */
  get gateJobs(): string {
    return `${this.prefix}:gate:jobs`;
  }

  /** The runs taken off a waiting line and not yet added to the run queue (a sorted set scored by time in ms). */
  get gateDispatching(): string {
    return `${this.prefix}:gate:dispatching`;
  }

  /** The lease of the API process that writes the history outbox to the database (one writer at a time). */
  get historyWriterLease(): string {
    return `${this.prefix}:history:writer`;
  }
}
