/**
 * The run store port: where run records live (docs/run-ownership.md, docs/api.md#run-lifecycle). Two
 * implementations behind it: the run registry in Redis (any deployment with a queue backend) and a bounded in-memory
 * store (direct mode without Redis). Both keep a record `RUN_RECORD_TTL_SECONDS` after its last update and check the
 * owner on every claim and every read.
 */
import type { ErrorReport } from '../../errors/index.js';
import type { RunIOArtifacts, RunResult, RunState, RunUsageReport } from '../../wire/index.js';
import { isSubmission, type RunEventBatch } from '../events/run-event-log.js';

/** A run as the store keeps it. Times are ISO-8601 UTC. */
export interface RunRecord {
  pipeline_run_id: string;
  /** The BullMQ job id of a queued run; null for a run in the API process (direct mode). */
  workflow_id: string | null;
  state: RunState;
  pipe_code: string | null;
  /**
   * Who may read the run and reuse its id: the caller's `user_id` (jwt) or `single-tenant` (spec §5;
   * docs/run-ownership.md).
   */
  owner: string;
  /** The effective `storage_scope`: as requested, else the owner's id (spec §2.3). */
  storage_scope: string;
  request_id: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  result?: RunResult;
  /**
   * A COMPLETED run's I/O artifacts (contracts and forms of its library's pipes), built when it finished and served by
   * its results read (docs/api.md#run-results); absent for a run recorded before they were kept.
   */
  io_artifacts?: RunIOArtifacts;
  /** Why a FAILED run failed, with the failing `pipe_code` (docs/run-events.md). */
  error?: ErrorReport;
  /** True once a retake of the run started in quarantine (its worker process died; docs/run-failures.md). */
  quarantined?: boolean;
  /** The stored method the run runs or is linked to (docs/methods.md#method_id); absent for inline sources alone. */
  method_id?: string;
  /** The method's published version that ran; absent for its draft and for a linked run. */
  method_version?: number;
  /** SHA-256 (hex) of the run's bundle texts, in order (docs/control-plane.md#run-history). */
  source_digest?: string;
  /** The run this one retries (`POST /v1/runs/{id}/retry`); absent for a run started otherwise. */
  retry_of?: string;
  /** Attempts made (a worker's retry of a run that failed transiently is another attempt). */
  attempts?: number;
  /** A FAILED run's usage up to its failure (a COMPLETED run's is in its result). */
  usage?: RunUsageReport;
  /** The id of the run's trace (32 hex digits) when tracing was on as it was accepted (docs/tracing.md#run-documents). */
  trace_id?: string;
}

/**
 * What a claim of a run id answers: `claimed` (the run goes to the run queue), `parked` (it must wait in its owner's
 * line of the dispatch gate, docs/fair-dispatch.md, and the caller parks it), `lined` (it waits in that line with the
 * job offered with the claim: nothing left to do), `full` (that line is at its waiting limit: nothing was stored),
 * `in_flight` or `taken` (see {@link RunStore.claim}).
 */
export type RunClaim = 'claimed' | 'parked' | 'lined' | 'full' | 'in_flight' | 'taken';

/** An owner's limits at the dispatch gate (docs/fair-dispatch.md), in runs. */
export interface DispatchLimits {
  /** Runs in the run queue (waiting or running) at once. */
  inFlight: number;
  /** Runs in the owner's waiting line before the queue. */
  waiting: number;
}

/**
 * A run's job offered with its claim, so that a claim which sends the run to its owner's line while every slot of the
 * owner is taken puts it there in the same step (docs/fair-dispatch.md#the-scripts).
 */
export interface LineOffer {
  /** The gate job's JSON text: the sealed job and its priority, as the park keeps it. */
  job: string;
  /** The run's score in its line: `(10 − priority) × 10¹³ + arrival ms`. */
  score: number;
}

/** What the admission of a queued run's job answers (docs/run-ownership.md#queue-jobs). */
export type RunAdmission = 'admitted' | 'not_accepted' | 'finished';

/** A run record's fields that tell the accepted run of an id: any other job under the id is not admitted. */
const ACCEPTED_FIELDS = ['workflow_id', 'owner', 'storage_scope', 'request_id', 'created_at'] as const;

/**
 * The admission of a job, decided on the record kept for its run id (the in-memory store's rule; the Redis registry
 * decides the same in its script).
 * @param held - the record kept for the id, if any
 * @param running - the RUNNING record the job would write
 */
export function admissionOf(held: RunRecord | undefined, running: RunRecord): RunAdmission {
  if (!held || ACCEPTED_FIELDS.some((field) => held[field] !== running[field])) return 'not_accepted';
  return held.state === 'STARTED' || held.state === 'RUNNING' ? 'admitted' : 'finished';
}

/** What finishing a run answers: its end was recorded, or the run had already ended (nothing written). */
export type RunFinish = 'recorded' | 'already_finished';

/**
 * Whether a finished record may replace the record kept for its id (the in-memory store's rule; the Redis registry
 * decides the same in its script): only while the kept record is the same submission (its `created_at` and
 * `request_id`) and has not finished, or when no record is kept (expired).
 * @param held - the record kept for the id, if any
 * @param finished - the finished record
 */
export function finishes(held: RunRecord | undefined, finished: RunRecord): boolean {
  if (!held) return true;
  if (!isSubmission(held, finished)) return false;
  return held.state === 'STARTED' || held.state === 'RUNNING';
}

/** Where run records are stored. Every method may throw QueueUnavailableError (503) when its Redis is down. */
export interface RunStore {
  /**
   * Claim a run's id for its owner, mark it in flight and store its record, atomically; a claim that replaces the
   * owner's earlier record of the id also drops that run's events and progress.
   * @param record - the new run's record: its `pipeline_run_id`, `workflow_id`, `owner`
   * @param limits - the owner's limits at the dispatch gate, when the run goes through it (a store without a gate
   *   ignores them)
   * @param offer - the run's job, for a claim that sends the run to its line to put it there at once (a store
   *   without a gate ignores it)
   * @returns `claimed` (the record is stored); `parked` (stored, and the run must wait in its owner's line); `lined`
   *   (stored, and the run waits in its owner's line with the offered job: only with an offer); `full` (nothing stored:
   *   the owner's line is full); `in_flight` when the owner's own run with this id is still in flight (spec §3 rule 3);
   *   `taken` when another owner's run, in flight or finished, holds the id while its record is kept
   */
  claim(record: RunRecord, limits?: DispatchLimits, offer?: LineOffer): Promise<RunClaim>;
  /** Undo a claim whose run was never enqueued: free the id, drop the record, its owner, events and progress. */
  abandon(runId: string): Promise<void>;
  /** Free a run id (completed, failed, or never enqueued). */
  release(runId: string): Promise<void>;
  /** Drop a record, its owner, events and progress (a run that was never enqueued). */
  forget(runId: string): Promise<void>;
  /**
   * Admit a queued run's job: store its RUNNING record only when the job is the run accepted under its id (same
   * owner, job id, `storage_scope`, `request_id` and `created_at` as the record kept) and the run has not finished.
   * @param running - the RUNNING record built from the job
   * @returns `admitted` (stored); `not_accepted` (no such record kept, or another run's); `finished`
   */
  admit(running: RunRecord): Promise<RunAdmission>;
  /** Store a record (replacing any previous one) and its owner, and reset their lifetime. */
  save(record: RunRecord): Promise<void>;
  /** Store a finished run's record and free its id: {@link RunStore.save} then {@link RunStore.release}, at once. */
  finish(record: RunRecord): Promise<void>;
  /**
   * Read a record.
   * @returns the record, or undefined for an unknown (or expired) run
   */
  get(runId: string): Promise<RunRecord | undefined>;
  /**
   * Read a record on behalf of a caller, answering alike for an unknown id and for another owner's run.
   * @param runId - the `pipeline_run_id`
   * @param owner - the reading caller's id
   * @returns the record, or undefined for an unknown (or expired) run and for a run `owner` does not own
   */
  getOwned(runId: string, owner: string): Promise<RunRecord | undefined>;
  /**
   * Record a run's end unless it already ended, in one atomic step (docs/run-failures.md#a-run-finishes-once): the
   * finished record replaces the kept one only while that one is the same submission and has not finished; of two
   * parties finishing one run, the first wins.
   * @param finished - the finished record (COMPLETED or FAILED)
   * @param options - `release`: also free the run id; `events`: appended to the run's event log in the same step
   *   (its events not yet appended and its terminal `run:finished`, so a reader that sees the end sees them too)
   * @returns `recorded`; `already_finished` when the kept record is finished or is a later submission's (nothing is
   *   written, and the caller must not act on the end: no events, callbacks or counts)
   */
  finishOnce(finished: RunRecord, options: FinishOptions): Promise<RunFinish>;
}

/** How {@link RunStore.finishOnce} records an end. */
export interface FinishOptions {
  /** Also free the run id. */
  release: boolean;
  /** Events to append with the finished record, in the same atomic step. */
  events?: RunEventBatch;
  /**
   * Also drop the run's step checkpoints (a completed run: no retry reads them; docs/checkpoints.md). A store that
   * keeps no checkpoints (the in-memory one) ignores it.
   */
  dropCheckpoints?: boolean;
}

/** A run the history outbox holds: its id and the mark of its latest change. */
export interface HistoryMark {
  runId: string;
  mark: number;
}

/**
 * The history outbox (docs/control-plane.md#the-history-outbox): every write of a run record marks the run, in the same
 * atomic step, until the history has written the run's latest record to the database. A run store implements it.
 */
export interface HistoryOutbox {
  /**
   * The oldest marked runs and their records as they are now.
   * @param limit - most runs answered
   * @returns the marks, and each one's record (undefined when it expired or was dropped)
   */
  pendingHistory(limit: number): Promise<{ marks: HistoryMark[]; records: (RunRecord | undefined)[] }>;
  /** Unmark the runs whose mark is still the one given (a run changed since keeps its mark). */
  settleHistory(marks: readonly HistoryMark[]): Promise<void>;
  /** How many runs are marked. */
  historyBacklog(): Promise<number>;
  /**
   * Take or keep the writer's lease: one process writes the outbox at a time.
   * @param holder - this process's token
   * @param ttlMs - how long the lease lasts unless renewed
   * @returns whether `holder` holds it now
   */
  leaseHistoryWriter(holder: string, ttlMs: number): Promise<boolean>;
}
