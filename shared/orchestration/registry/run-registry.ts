/**
 * The run registry in Redis: one JSON record per run (state, timestamps, result or error report), kept
 * `RUN_RECORD_TTL_SECONDS`, plus an in-flight marker per run id that makes a duplicate `/v1/start` a 409 until the run
 * completes or fails (spec §3 run id rules), and the run's owner, kept as long as its record: run ids are global, and
 * ownership is checked on every claim and every read (docs/run-ownership.md).
 */
import type { Redis } from 'ioredis';
import type { QueueKeys } from '../queue/queue-keys.js';
import { whenQueueReachable } from '../queue/queue-outage.js';
import { FINISH_RUN_ONCE } from './run-finish-script.js';
import { ADMIT_RUN_JOB, CLAIM_RUN_ID, READ_OWNED_RECORD, STORE_RUN_RECORD } from './run-ownership-scripts.js';
import type { RunAdmission, RunClaim, RunFinish, RunRecord, RunStore } from './run-store.js';

/** The connection with the ownership scripts defined on it (ioredis `defineCommand`: `EVALSHA`, loading on a miss). */
interface ScriptedRedis extends Redis {
  mthdsClaimRunId(...keysThenArgs: (string | number)[]): Promise<RunClaim>;
  mthdsReadOwnedRecord(...keysThenArgs: string[]): Promise<string | null>;
  mthdsStoreRunRecord(...keysThenArgs: (string | number)[]): Promise<number>;
  mthdsAdmitRunJob(...keysThenArgs: (string | number)[]): Promise<RunAdmission>;
  mthdsFinishRunOnce(...keysThenArgs: (string | number)[]): Promise<RunFinish>;
}

function reachable<T>(call: () => Promise<T>): Promise<T> {
  return whenQueueReachable(call, (reason) => `The run registry (Redis) is unreachable: ${reason}. Retry later.`);
}

/** Registry of runs of one deployment, in Redis. */
export class RunRegistry implements RunStore {
  private readonly scripted: ScriptedRedis;

  /**
   * @param redis - the registry's connection; the ownership scripts are defined on it
   * @param keys - the deployment's key names
   * @param ttlSeconds - record lifetime in seconds
   */
  constructor(
    private readonly redis: Redis,
    private readonly keys: QueueKeys,
    private readonly ttlSeconds: number,
  ) {
    redis.defineCommand('mthdsClaimRunId', { numberOfKeys: 5, lua: CLAIM_RUN_ID });
    redis.defineCommand('mthdsReadOwnedRecord', { numberOfKeys: 2, lua: READ_OWNED_RECORD });
    redis.defineCommand('mthdsStoreRunRecord', { numberOfKeys: 3, lua: STORE_RUN_RECORD });
    redis.defineCommand('mthdsAdmitRunJob', { numberOfKeys: 2, lua: ADMIT_RUN_JOB });
    redis.defineCommand('mthdsFinishRunOnce', { numberOfKeys: 3, lua: FINISH_RUN_ONCE });
    this.scripted = redis as ScriptedRedis;
  }

  /**
   * Claim a run's id for its owner, mark it in flight and store its record, in one atomic Redis script (no
   * check-then-set race, one round trip); the claim drops the events and progress of the owner's earlier run of the id.
   * @param record - the new run's record: its `pipeline_run_id`, `workflow_id` (the in-flight marker's value), `owner`
   * @returns `claimed` (the record is stored); `in_flight` when the owner's own run with this id is still in flight
   *   (spec §3 rule 3); `taken` when another owner's run, in flight or finished, holds the id while its record is kept
   * @throws QueueUnavailableError (503) when Redis is down
   */
  claim(record: RunRecord): Promise<RunClaim> {
    return reachable(async () => {
      const runId = record.pipeline_run_id;
      const keys = [
        this.keys.inFlight(runId),
        this.keys.owner(runId),
        this.keys.run(runId),
        this.keys.events(runId),
        this.keys.progress(runId),
      ];
      return this.scripted.mthdsClaimRunId(
        ...keys,
        record.workflow_id ?? '',
        record.owner,
        this.ttlSeconds,
        JSON.stringify(record),
      );
    });
  }

  /**
   * Undo a claim whose run was never enqueued: free the id and drop the record and owner the claim stored (so an id
   * nobody ran is nobody's; the claim had replaced any earlier record of the owner's).
   * @throws QueueUnavailableError (503) when Redis is down
   */
  abandon(runId: string): Promise<void> {
    return reachable(async () => {
      await this.redis.del(this.keys.inFlight(runId), ...this.recordKeys(runId));
    });
  }

  /** Free a run id (completed, failed, or never enqueued). */
  release(runId: string): Promise<void> {
    return reachable(async () => {
      await this.redis.del(this.keys.inFlight(runId));
    });
  }

  /** Drop a record, its owner, events and progress (a run that was never enqueued). */
  forget(runId: string): Promise<void> {
    return reachable(async () => {
      await this.redis.del(...this.recordKeys(runId));
    });
  }

  private recordKeys(runId: string): string[] {
    return [this.keys.run(runId), this.keys.owner(runId), this.keys.events(runId), this.keys.progress(runId)];
  }

  /**
   * Admit a queued run's job in one atomic Redis script: the RUNNING record and its owner are stored only when the
   * record kept for the id is the job's run and has not finished (docs/run-ownership.md#queue-jobs).
   * @param running - the RUNNING record built from the job
   * @returns `admitted`, `not_accepted` or `finished` (see {@link RunStore.admit})
   * @throws QueueUnavailableError (503) when Redis is down
   */
  admit(running: RunRecord): Promise<RunAdmission> {
    return reachable(async () => {
      const runId = running.pipeline_run_id;
      return this.scripted.mthdsAdmitRunJob(
        this.keys.owner(runId),
        this.keys.run(runId),
        running.owner,
        JSON.stringify(running),
        this.ttlSeconds,
      );
    });
  }

  /** Store a record (replacing any previous one) and its owner, in one script, and reset both TTLs. */
  save(record: RunRecord): Promise<void> {
    return this.store(record, false);
  }

  /**
   * Store a finished run's record (replacing the previous one) and its owner and free its id, in one script: what
   * {@link save} then {@link release} do, in one round trip.
   * @throws QueueUnavailableError (503) when Redis is down
   */
  finish(record: RunRecord): Promise<void> {
    return this.store(record, true);
  }

  private store(record: RunRecord, release: boolean): Promise<void> {
    return reachable(async () => {
      const runId = record.pipeline_run_id;
      await this.scripted.mthdsStoreRunRecord(
        this.keys.run(runId),
        this.keys.owner(runId),
        this.keys.inFlight(runId),
        JSON.stringify(record),
        record.owner,
        this.ttlSeconds,
        release ? '1' : '0',
      );
    });
  }

  /**
   * Read a record.
   * @returns the record, or undefined for an unknown (or expired) run
   */
  get(runId: string): Promise<RunRecord | undefined> {
    return reachable(async () => {
      const text = await this.redis.get(this.keys.run(runId));
      return text === null ? undefined : (JSON.parse(text) as RunRecord);
    });
  }

  /**
   * Read a record on behalf of a caller, in one atomic Redis script that answers alike for an unknown id and for
   * another owner's run (so neither the answer nor its timing tells them apart).
   * @param runId - the `pipeline_run_id`
   * @param owner - the reading caller's id
   * @returns the record, or undefined for an unknown (or expired) run and for a run `owner` does not own
   * @throws QueueUnavailableError (503) when Redis is down
   */
  getOwned(runId: string, owner: string): Promise<RunRecord | undefined> {
    return reachable(async () => {
      const text = await this.scripted.mthdsReadOwnedRecord(this.keys.owner(runId), this.keys.run(runId), owner);
      return text === null ? undefined : (JSON.parse(text) as RunRecord);
    });
  }

  /**
   * Record a run's end unless it already ended: the check of the kept record and the write are one Redis script, so
   * the first of two parties finishing one run wins (docs/run-failures.md#a-run-finishes-once).
   * @param finished - the finished record (COMPLETED or FAILED)
   * @param options - `release`: also free the run id
   * @returns `recorded`, or `already_finished` (nothing written; see {@link RunStore.finishOnce})
   * @throws QueueUnavailableError (503) when Redis is down
   */
  finishOnce(finished: RunRecord, options: { release: boolean }): Promise<RunFinish> {
    return reachable(async () => {
      const runId = finished.pipeline_run_id;
      return this.scripted.mthdsFinishRunOnce(
        this.keys.run(runId),
        this.keys.owner(runId),
        this.keys.inFlight(runId),
        JSON.stringify(finished),
        finished.owner,
        this.ttlSeconds,
        options.release ? '1' : '0',
        finished.created_at,
        finished.request_id,
      );
    });
  }
}
