/**
 * The dispatch gate in front of the run queue (docs/fair-dispatch.md): each owner (organization) has at most its
 * in-flight limit of runs in the queue; its other runs wait in its own line, in priority then arrival order, and
 * each run that leaves the queue hands its slot to the head of its owner's line. A flood by one owner therefore
 * fills only its own slots, and the runs of every other owner reach the queue behind at most their own.
 *
 * The claim and the finish of a run (the registry's scripts) enter and leave the gate; this class parks a claimed run
 * in its line, withdraws a run, and adds the runs handed a slot to the run queue — with a reclaimer that adds those
 * a dispatcher took and did not add (it died meanwhile).
 */
import { LRUCache } from 'lru-cache';
import type { RedisClient } from '../../config/index.js';
import { swallowedErrors } from '../../observability/index.js';
import { type QueuedRunJob, type QueueKeys, type RunQueue, runJobId, type Sealed } from '../queue/index.js';
import { whenQueueReachable } from '../queue/queue-outage.js';
import type { LineOffer, RunClaim } from '../registry/index.js';
import { DISPATCHED, PARK_RUN, RECLAIM_DISPATCHING, WITHDRAW_RUN } from './gate-scripts.js';
import { type GateJob, type HandedRun, handedRuns } from './handed-runs.js';
import { RUN_PRIORITY } from './priority.js';

/** How often a process looks for runs a dispatcher took and did not add, in ms. */
const RECLAIM_EVERY_MS = 5000;
/** How long a run may stay taken before another process adds it, in ms. */
const RECLAIM_AFTER_MS = 15_000;
/** Most runs taken back per look. */
const RECLAIM_BATCH = 100;
/** Spacing of priority tiers in a line's scores: above any epoch-ms arrival time. */
const PRIORITY_TIER = 1e13;
/** Owners whose last claim in this process went to their line, remembered at most ({@link RunGate.expectsLine}). */
const LINED_OWNERS_KEPT = 10_000;
/** How long an owner's last lined claim is remembered, in ms. */
const LINED_OWNER_TTL_MS = 5000;

type GateRedis = RedisClient & {
  mthdsGatePark(...keysThenArgs: (string | number)[]): Promise<string[]>;
  mthdsGateWithdraw(...keysThenArgs: (string | number)[]): Promise<[number, ...string[]]>;
  mthdsGateDispatched(...keysThenArgs: string[]): Promise<number>;
  mthdsGateReclaim(...keysThenArgs: (string | number)[]): Promise<string[]>;
};

/** What the gate works with. */
export interface RunGateOptions {
  /** The connection its scripts are defined on (the registry's). */
  redis: RedisClient;
  keys: QueueKeys;
  /** Where runs handed a slot are added. */
  queue: RunQueue;
  /** The clock, epoch ms. */
  now(): number;
}

/** The dispatch gate of one deployment. */
export class RunGate {
  private readonly redis: GateRedis;
  private reclaimer: NodeJS.Timeout | undefined;
  /** Owners whose last claim here went to their line (their runs are likely to wait too). */
  private readonly linedOwners = new LRUCache<string, true>({ max: LINED_OWNERS_KEPT, ttl: LINED_OWNER_TTL_MS });

  constructor(private readonly options: RunGateOptions) {
    const { redis } = options;
    redis.defineCommand('mthdsGatePark', { numberOfKeys: 4, lua: PARK_RUN });
    redis.defineCommand('mthdsGateWithdraw', { numberOfKeys: 4, lua: WITHDRAW_RUN });
    redis.defineCommand('mthdsGateDispatched', { numberOfKeys: 2, lua: DISPATCHED });
    redis.defineCommand('mthdsGateReclaim', { numberOfKeys: 2, lua: RECLAIM_DISPATCHING });
    this.redis = redis as GateRedis;
  }

  private ownerKeys(owner: string): string[] {
    const { keys } = this.options;
    return [keys.gateInFlight(owner), keys.gateLine(owner), keys.gateJobs, keys.gateDispatching];
  }

  /**
   * Whether a run of this owner is likely to wait in its line: its last claim in this process, within the last 5 s,
   * did. Such a start offers its job with its claim ({@link offer}), so that the claim lines it in the same step.
   * @param owner - the run's owner
   */
  expectsLine(owner: string): boolean {
    return this.linedOwners.has(owner);
  }

  /**
   * Remember where an owner's claim sent its run, for {@link expectsLine}.
   * @param owner - the run's owner
   * @param claim - what the claim answered
   */
  noteClaim(owner: string, claim: RunClaim): void {
    if (claim === 'parked' || claim === 'lined') this.linedOwners.set(owner, true);
    else if (claim === 'claimed') this.linedOwners.delete(owner);
  }

  /**
   * A run's job as its line keeps it: sealed, with its priority, and its score in the line.
   * @param job - the run's job as queued (whole or offloaded)
   * @param priority - the run's priority ({@link RUN_PRIORITY})
   * @throws whatever Redis throws when the seal key cannot be read
   */
  async offer(job: QueuedRunJob, priority: number): Promise<LineOffer> {
    const gateJob: GateJob = { data: await this.options.queue.seal(job), priority };
    return { job: JSON.stringify(gateJob), score: (RUN_PRIORITY.max - priority) * PRIORITY_TIER + this.options.now() };
  }

  /**
   * Put a run the claim parked in its owner's line, with its sealed job; runs that the owner's free slots take at once
   * (this one, when its wait already ended) are added to the queue before this resolves.
   * @param job - the run's job as queued (whole or offloaded)
   * @param owner - the run's owner
   * @param priority - the run's priority ({@link RUN_PRIORITY})
   * @param inFlightLimit - the owner's in-flight limit
   * @param offered - the job's {@link offer}, when one was made for the claim
   * @throws QueueUnavailableError (503) when Redis is unreachable
   */
  async park(
    job: QueuedRunJob,
    owner: string,
    priority: number,
    inFlightLimit: number,
    offered?: LineOffer,
  ): Promise<void> {
    const { job: gateJob, score } = offered ?? (await this.offer(job, priority));
    const handed = await this.reachable(() =>
      this.redis.mthdsGatePark(
        ...this.ownerKeys(owner),
        job.pipeline_run_id,
        score,
        gateJob,
        inFlightLimit,
        this.options.now(),
      ),
    );
    await this.dispatch(handedRuns(handed));
  }

  /**
   * Take a run out of the gate (out of its owner's line, or out of its in-flight set, handing its slot on).
   * @param runId - the run's id
   * @param owner - its owner
   * @returns whether it was waiting in the line
   * @throws QueueUnavailableError (503) when Redis is unreachable
   */
  async withdraw(runId: string, owner: string): Promise<boolean> {
    const [left, ...handed] = await this.reachable(() =>
      this.redis.mthdsGateWithdraw(...this.ownerKeys(owner), runId, this.options.now()),
    );
    await this.dispatch(handedRuns(handed));
    return left === 1;
  }

  /**
   * Add runs handed a slot to the run queue, then mark them dispatched. A run whose add fails stays taken, and a
   * reclaimer adds it later.
   * @param runs - the runs, with their gate jobs
   */
  async dispatch(runs: readonly HandedRun[]): Promise<void> {
    if (runs.length === 0) return;
    const added = await Promise.all(runs.map((run) => this.add(run)));
    const done = runs.filter((_, index) => added[index]).map((run) => run.runId);
    if (done.length > 0)
      await this.redis
        .mthdsGateDispatched(this.options.keys.gateJobs, this.options.keys.gateDispatching, ...done)
        .catch((error: unknown) => swallowedErrors.report('run-gate:dispatched', error));
  }

  private async add(run: HandedRun): Promise<boolean> {
    try {
      const job = JSON.parse(run.job) as GateJob;
      await this.options.queue.addSealed(
        runJobId(run.runId),
        job.data as Sealed<QueuedRunJob>,
        job.priority ?? RUN_PRIORITY.default,
      );
      return true;
    } catch (error) {
      swallowedErrors.report('run-gate:dispatch', error);
      return false;
    }
  }

  /**
   * Add the runs taken longer than {@link RECLAIM_AFTER_MS} ago and never reported added.
   * @returns how many were taken back
   */
  async reclaim(): Promise<number> {
    const { keys } = this.options;
    const flat = await this.redis.mthdsGateReclaim(
      keys.gateJobs,
      keys.gateDispatching,
      this.options.now(),
      RECLAIM_AFTER_MS,
      RECLAIM_BATCH,
    );
    const runs = handedRuns(flat);
    await this.dispatch(runs);
    return runs.length;
  }

  /** Look for runs to take back every {@link RECLAIM_EVERY_MS} until {@link close}. */
  startReclaiming(): void {
    this.reclaimer ??= setInterval(() => {
      this.reclaim().catch((error: unknown) => swallowedErrors.report('run-gate:reclaim', error));
    }, RECLAIM_EVERY_MS).unref();
  }

  /** How many runs wait in the owners' lines or are being dispatched, all owners together. */
  waiting(): Promise<number> {
    return this.reachable(() => this.redis.hlen(this.options.keys.gateJobs));
  }

  /** Stop the reclaimer. */
  close(): void {
    clearInterval(this.reclaimer);
    this.reclaimer = undefined;
  }

  private reachable<T>(call: () => Promise<T>): Promise<T> {
    return whenQueueReachable(call, (reason) => `The dispatch gate (Redis) is unreachable: ${reason}. Retry later.`);
  }
}
