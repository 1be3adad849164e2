/**
 * The in-memory run store (direct mode without Redis): the run store port over a {@link MemoryRunTable}, with the
 * semantics of the Redis registry — owner checked on every claim and read, an in-flight id refused, a record kept
 * `RUN_RECORD_TTL_SECONDS` after its last update — in one process, within the table's bounds.
 * Records are stored as given and handed out as stored: callers treat them as values and never mutate them.
 */
import {
  admissionOf,
  type FinishOptions,
  finishes,
  type HistoryMark,
  type HistoryOutbox,
  type RunAdmission,
  type RunClaim,
  type RunFinish,
  type RunRecord,
  type RunStore,
} from '../registry/run-store.js';
import { appendToEntry } from './memory-run-event-log.js';
import type { MemoryRunEntry, MemoryRunTable } from './memory-run-table.js';

function setRecord(entry: MemoryRunEntry, record: RunRecord): void {
  entry.record = record;
  entry.recordBytes = JSON.stringify(record).length;
  entry.owner = record.owner;
}

/**
 * Most runs the in-memory history outbox holds; past it, the oldest mark is dropped (its run's latest change never
 * reaches the history). A writer drains it within a fraction of a second, so only a database down for long fills it.
 */
const MAX_HISTORY_MARKS = 100_000;

/** Run records of this process, and their history outbox. */
export class MemoryRunStore implements RunStore, HistoryOutbox {
  /** The history outbox: run id → mark of its latest change, oldest first. */
  private readonly marks = new Map<string, number>();
  private sequence = 0;

  /**
   * @param table - the table shared with the in-memory event log
   * @param maxEventsPerRun - most events kept per run (`RUN_EVENTS_MAX_PER_RUN`), for the events a finish appends
   */
  constructor(
    private readonly table: MemoryRunTable,
    private readonly maxEventsPerRun: number,
  ) {}

  private mark(runId: string): void {
    this.marks.delete(runId);
    this.marks.set(runId, ++this.sequence);
    if (this.marks.size > MAX_HISTORY_MARKS) this.marks.delete(this.marks.keys().next().value as string);
  }

  async pendingHistory(limit: number): Promise<{ marks: HistoryMark[]; records: (RunRecord | undefined)[] }> {
    const marks: HistoryMark[] = [];
    for (const [runId, mark] of this.marks) {
      if (marks.length >= limit) break;
      marks.push({ runId, mark });
    }
    return { marks, records: marks.map((entry) => this.table.get(entry.runId)?.record) };
  }

  async settleHistory(marks: readonly HistoryMark[]): Promise<void> {
    for (const entry of marks) if (this.marks.get(entry.runId) === entry.mark) this.marks.delete(entry.runId);
  }

  async historyBacklog(): Promise<number> {
    return this.marks.size;
  }

  async leaseHistoryWriter(): Promise<boolean> {
    return true;
  }

  async claim(record: RunRecord): Promise<RunClaim> {
    const held = this.table.get(record.pipeline_run_id);
    if (held?.owner !== undefined ? held.owner !== record.owner : held?.record !== undefined) return 'taken';
    if (held?.inFlight) return 'in_flight';
    this.table.write(record.pipeline_run_id, (entry) => {
      setRecord(entry, record);
      Object.assign(entry, { inFlight: true, events: [], eventBytes: 0, progress: undefined, lastEventId: undefined });
    });
    this.mark(record.pipeline_run_id);
    return 'claimed';
  }

  async abandon(runId: string): Promise<void> {
    this.table.delete(runId);
    this.mark(runId);
  }

  async release(runId: string): Promise<void> {
    const entry = this.table.get(runId);
    if (entry) entry.inFlight = false;
  }

  async forget(runId: string): Promise<void> {
    this.mark(runId);
    if (!this.table.get(runId)?.inFlight) return this.table.delete(runId);
    this.table.write(runId, (entry) =>
      Object.assign(entry, { record: undefined, recordBytes: 0, owner: undefined, events: [], eventBytes: 0 }),
    );
  }

  async admit(running: RunRecord): Promise<RunAdmission> {
    const entry = this.table.get(running.pipeline_run_id);
    const admission = admissionOf(entry?.owner === running.owner ? entry.record : undefined, running);
    if (admission === 'admitted') await this.save(running);
    return admission;
  }

  async save(record: RunRecord): Promise<void> {
    this.table.write(record.pipeline_run_id, (entry) => setRecord(entry, record));
    this.mark(record.pipeline_run_id);
  }

  async finish(record: RunRecord): Promise<void> {
    this.table.write(record.pipeline_run_id, (entry) => {
      setRecord(entry, record);
      entry.inFlight = false;
    });
    this.mark(record.pipeline_run_id);
  }

  async get(runId: string): Promise<RunRecord | undefined> {
    return this.table.get(runId)?.record;
  }

  async getOwned(runId: string, owner: string): Promise<RunRecord | undefined> {
    const entry = this.table.get(runId);
    return entry?.owner === owner ? entry.record : undefined;
  }

  async finishOnce(finished: RunRecord, options: FinishOptions): Promise<RunFinish> {
    const runId = finished.pipeline_run_id;
    if (!finishes(this.table.get(runId)?.record, finished)) return 'already_finished';
    const { events } = options;
    const now = this.table.now();
    this.table.write(runId, (entry) => {
      setRecord(entry, finished);
      if (options.release) entry.inFlight = false;
      if (events) appendToEntry(entry, events, now, this.maxEventsPerRun);
    });
    this.mark(runId);
    return 'recorded';
  }
}
