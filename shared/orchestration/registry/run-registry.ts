/**
 * The run registry in Redis: one JSON record per run (state, timestamps, result or error report), kept
 * `RUN_RECORD_TTL_SECONDS`, plus an in-flight marker per run id that makes a duplicate `/v1/start` a 409 until the run
 * completes or fails (spec §3 run id rules), and the run's owner, kept as long as its record: run ids are global, and
 * ownership is checked on every claim and every read (docs/run-ownership.md).
 */
import type { RedisClient } from '../../config/index.js';
import { type HandedRun, handedRuns } from '../fairness/handed-runs.js';
import type { QueueKeys } from '../queue/queue-keys.js';
import { whenQueueReachable } from '../queue/queue-outage.js';
import { recordText } from './record-text.js';
import { FINISH_RUN_ONCE } from './run-finish-script.js';
import { ADMIT_RUN_JOB, CLAIM_RUN_ID, READ_OWNED_RECORD, STORE_RUN_RECORD } from './run-ownership-scripts.js';
import type {
  DispatchLimits,
  FinishOptions,
  HistoryMark,
  HistoryOutbox,
  LineOffer,
  RunAdmission,
  RunClaim,
  RunFinish,
  RunRecord,
  RunStore,
} from './run-store.js';

/** Mark a run in the history outbox. KEYS[1] outbox, KEYS[2] sequence. ARGV[1] the run id. */
const MARK_HISTORY = `redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[2]), ARGV[1])`;

/** Unmark runs whose mark is unchanged. KEYS[1] outbox. ARGV: run id, mark, run id, mark, … */
const SETTLE_HISTORY = `
for i = 1, #ARGV, 2 do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) == ARGV[i + 1] then redis.call('ZREM', KEYS[1], ARGV[i]) end
end
return 1
`;

/** Take the writer's lease, or renew it when held. KEYS[1] lease. ARGV[1] holder, ARGV[2] TTL in ms. */
const LEASE_HISTORY_WRITER = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/** The connection with the ownership scripts defined on it (ioredis `defineCommand`: `EVALSHA`, loading on a miss). */
type ScriptedRedis = RedisClient & {
  mthdsClaimRunId(...keysThenArgs: (string | number)[]): Promise<RunClaim>;
  mthdsReadOwnedRecord(...keysThenArgs: string[]): Promise<string | null>;
  mthdsStoreRunRecord(...keysThenArgs: (string | number)[]): Promise<number>;
  mthdsAdmitRunJob(...keysThenArgs: (string | number)[]): Promise<RunAdmission>;
  mthdsFinishRunOnce(...keysThenArgs: (string | number)[]): Promise<[RunFinish, ...string[]]>;
  mthdsMarkHistory(...keysThenArgs: string[]): Promise<unknown>;
  mthdsSettleHistory(...keysThenArgs: string[]): Promise<unknown>;
  mthdsLeaseHistoryWriter(...keysThenArgs: (string | number)[]): Promise<number>;
};

function reachable<T>(call: () => Promise<T>): Promise<T> {
  return whenQueueReachable(call, (reason) => `The run registry (Redis) is unreachable: ${reason}. Retry later.`);
}

/** Registry of runs of one deployment, in Redis, and its history outbox. */
export class RunRegistry implements RunStore, HistoryOutbox {
  private readonly scripted: ScriptedRedis;
  /**
   * Where the runs a finish hands a freed slot go (the dispatcher of the gate, docs/fair-dispatch.md); until one is
   * set, they wait in the dispatching set for a reclaimer.
   */
  onHandover: ((runs: HandedRun[]) => void) | undefined;

  /**
   * @param redis - the registry's connection; the ownership scripts are defined on it
   * @param keys - the deployment's key names
   * @param ttlSeconds - record lifetime in seconds
   * @param maxEventsPerRun - most events kept per run (`RUN_EVENTS_MAX_PER_RUN`), for the events a finish appends
   */
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: QueueKeys,
    private readonly ttlSeconds: number,
    private readonly maxEventsPerRun: number,
  ) {
    redis.defineCommand('mthdsClaimRunId', { numberOfKeys: 10, lua: CLAIM_RUN_ID });
    redis.defineCommand('mthdsReadOwnedRecord', { numberOfKeys: 2, lua: READ_OWNED_RECORD });
    redis.defineCommand('mthdsStoreRunRecord', { numberOfKeys: 5, lua: STORE_RUN_RECORD });
    redis.defineCommand('mthdsAdmitRunJob', { numberOfKeys: 4, lua: ADMIT_RUN_JOB });
    redis.defineCommand('mthdsFinishRunOnce', { numberOfKeys: 12, lua: FINISH_RUN_ONCE });
    redis.defineCommand('mthdsMarkHistory', { numberOfKeys: 2, lua: MARK_HISTORY });
    redis.defineCommand('mthdsSettleHistory', { numberOfKeys: 1, lua: SETTLE_HISTORY });
    redis.defineCommand('mthdsLeaseHistoryWriter', { numberOfKeys: 1, lua: LEASE_HISTORY_WRITER });
    this.scripted = redis as ScriptedRedis;
  }

  /**
   * Claim a run's id for its owner, mark it in flight and store its record, in one atomic Redis script (no
   * check-then-set race, one round trip); the claim drops the events and progress of the owner's earlier run of the id.
   * @param record - the new run's record: its `pipeline_run_id`, `workflow_id` (the in-flight marker's value), `owner`
   * @param limits - the owner's limits at the dispatch gate; none: the run bypasses it
   * @param offer - the run's gate job, lined at once when the claim sends the run to its line and every slot is taken
   * @returns see {@link RunStore.claim}
   * @throws QueueUnavailableError (503) when Redis is down
   */
  claim(record: RunRecord, limits?: DispatchLimits, offer?: LineOffer): Promise<RunClaim> {
    return reachable(async () => {
      const runId = record.pipeline_run_id;
      const keys = [
        this.keys.inFlight(runId),
        this.keys.owner(runId),
        this.keys.run(runId),
        this.keys.events(runId),
        this.keys.progress(runId),
        ...this.outboxKeys(),
        this.keys.gateInFlight(record.owner),
        this.keys.gateLine(record.owner),
        this.keys.gateJobs,
      ];
      return this.scripted.mthdsClaimRunId(
        ...keys,
        record.workflow_id ?? '',
        record.owner,
        this.ttlSeconds,
        JSON.stringify(record),
        runId,
        limits?.inFlight ?? '',
        limits?.waiting ?? 0,
        Date.now(),
        offer?.job ?? '',
        offer?.score ?? 0,
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
      await this.scripted.mthdsMarkHistory(...this.outboxKeys(), runId);
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
      await this.scripted.mthdsMarkHistory(...this.outboxKeys(), runId);
    });
  }

  private outboxKeys(): [string, string] {
    return [this.keys.historyOutbox, this.keys.historySequence];
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
        ...this.outboxKeys(),
        running.owner,
        JSON.stringify(running),
        this.ttlSeconds,
        runId,
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
        ...this.outboxKeys(),
        JSON.stringify(record),
        record.owner,
        this.ttlSeconds,
        release ? '1' : '0',
        runId,
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
   * the first of two parties finishing one run wins (docs/run-failures.md#a-run-finishes-once). A recorded end also
   * takes the run out of its owner's in-flight set at the dispatch gate; a run handed its slot goes to
   * {@link onHandover}.
   * @param finished - the finished record (COMPLETED or FAILED)
   * @param options - `release`: also free the run id; `dropCheckpoints`: also drop its step checkpoints; `events`: append
   *   them with the end
   * @returns `recorded`, or `already_finished` (nothing written; see {@link RunStore.finishOnce})
   * @throws QueueUnavailableError (503) when Redis is down
   */
  finishOnce(finished: RunRecord, options: FinishOptions): Promise<RunFinish> {
    return reachable(async () => {
      const runId = finished.pipeline_run_id;
      const batch = options.events;
      const [outcome, ...handed] = await this.scripted.mthdsFinishRunOnce(
        this.keys.run(runId),
        this.keys.owner(runId),
        this.keys.inFlight(runId),
        ...this.outboxKeys(),
        this.keys.gateInFlight(finished.owner),
        this.keys.gateLine(finished.owner),
        this.keys.gateJobs,
        this.keys.gateDispatching,
        this.keys.events(runId),
        this.keys.progress(runId),
        this.keys.checkpoints(runId),
        recordText(finished),
        finished.owner,
        this.ttlSeconds,
        options.release ? '1' : '0',
        finished.created_at,
        finished.request_id,
        runId,
        Date.now(),
        this.maxEventsPerRun,
        batch?.progress ? JSON.stringify(batch.progress) : '',
        options.dropCheckpoints ? '1' : '0',
        ...(batch?.events ?? []).map((event) => JSON.stringify(event)),
      );
      if (handed.length > 0) this.onHandover?.(handedRuns(handed));
      return outcome;
    });
  }

  /**
   * The oldest runs of the history outbox and their records, in two round trips.
   * @throws QueueUnavailableError (503) when Redis is down
   */
  pendingHistory(limit: number): Promise<{ marks: HistoryMark[]; records: (RunRecord | undefined)[] }> {
    return reachable(async () => {
      const flat = await this.redis.zrange(this.keys.historyOutbox, '0', String(limit - 1), 'WITHSCORES');
      const marks: HistoryMark[] = [];
      for (let index = 0; index < flat.length; index += 2)
        marks.push({ runId: flat[index] as string, mark: Number(flat[index + 1]) });
      if (marks.length === 0) return { marks, records: [] };
      const texts = await this.redis.mget(...marks.map((entry) => this.keys.run(entry.runId)));
      return { marks, records: texts.map((text) => (text === null ? undefined : (JSON.parse(text) as RunRecord))) };
    });
  }

  /**
   * Unmark the runs whose mark is unchanged, in one script.
   * @throws QueueUnavailableError (503) when Redis is down
   */
  settleHistory(marks: readonly HistoryMark[]): Promise<void> {
    return reachable(async () => {
      if (marks.length === 0) return;
      await this.scripted.mthdsSettleHistory(
        this.keys.historyOutbox,
        ...marks.flatMap((entry) => [entry.runId, String(entry.mark)]),
      );
    });
  }

  /** How many runs the history outbox holds. */
  historyBacklog(): Promise<number> {
    return reachable(() => this.redis.zcard(this.keys.historyOutbox));
  }

  /** Take or renew the history writer's lease (see {@link HistoryOutbox.leaseHistoryWriter}). */
  leaseHistoryWriter(holder: string, ttlMs: number): Promise<boolean> {
    return reachable(
      async () => (await this.scripted.mthdsLeaseHistoryWriter(this.keys.historyWriterLease, holder, ttlMs)) === 1,
    );
  }
}
