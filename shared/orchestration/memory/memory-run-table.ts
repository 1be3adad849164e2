/**
 * The bounded in-memory table behind the in-memory run store and event log (direct mode without Redis,
 * docs/api.md "Run lifecycle"): one entry per run id — record, owner, in-flight flag, events, progress — kept
 * `RUN_RECORD_TTL_SECONDS` after its last write, as Redis keeps its keys; at most `RUN_RECORDS_MAX_IN_MEMORY` entries
 * and `RUN_RECORDS_MAX_IN_MEMORY_MIB` of records and events (measured as their JSON text): a write beyond either drops
 * the least recently written runs. Entries are ordered by their last write, so the expired and the evicted are always
 * at the front; nothing runs on a timer.
 */

import type { RunProgress } from '../events/run-event.js';
import type { LoggedRunEvent } from '../events/run-event-log.js';
import type { RunRecord } from '../registry/run-store.js';

/** An event as the table keeps it: with the length of its JSON text. */
export interface MemoryLoggedEvent extends LoggedRunEvent {
  bytes: number;
}

/** One run's entry. */
export interface MemoryRunEntry {
  record: RunRecord | undefined;
  /** Length of the record's JSON text. */
  recordBytes: number;
  owner: string | undefined;
  inFlight: boolean;
  /**
   * Its events in order: the last `RUN_EVENTS_MAX_PER_RUN` are kept, after at most a quarter as many dropped ones
   * waiting to be cut (`memory-run-event-log.ts`).
   */
  events: MemoryLoggedEvent[];
  /** Total length of the events' JSON texts. */
  eventBytes: number;
  progress: RunProgress | undefined;
  /** The id of the last event appended (`<ms>-<seq>`), or undefined before the first. */
  lastEventId: string | undefined;
  /** Called after every change of the entry and when it is dropped (followers waiting for events). */
  readonly listeners: Set<() => void>;
  /** When it expires, epoch ms. */
  expiresAt: number;
}

/** Bounds and clock of a table. */
export interface MemoryRunTableOptions {
  /** Lifetime of an entry after its last write, in seconds (`RUN_RECORD_TTL_SECONDS`). */
  ttlSeconds: number;
  /** Most entries kept (`RUN_RECORDS_MAX_IN_MEMORY`). */
  maxRuns: number;
  /** Most bytes of records and events kept, as JSON text (`RUN_RECORDS_MAX_IN_MEMORY_MIB`). */
  maxBytes: number;
  /** Clock, epoch ms. */
  now(): number;
}

/** The table of runs held in this process. */
export class MemoryRunTable {
  private readonly entries = new Map<string, MemoryRunEntry>();
  private bytes = 0;

  /** @param options - TTL, bound and clock */
  constructor(private readonly options: MemoryRunTableOptions) {}

  /** The clock of the table, epoch ms. */
  now(): number {
    return this.options.now();
  }

  /**
   * A live entry.
   * @returns the entry, or undefined when the run is unknown or expired (an expired one is dropped)
   */
  get(runId: string): MemoryRunEntry | undefined {
    const entry = this.entries.get(runId);
    if (entry && entry.expiresAt <= this.options.now()) {
      this.drop(runId, entry);
      return undefined;
    }
    return entry;
  }

  /**
   * Change a run's entry, created when absent: it moves to the back, its lifetime starts again, its size is counted
   * anew, the expired entries and those beyond the bounds are dropped from the front (never the one written), and its
   * listeners are told.
   * @param runId - the `pipeline_run_id`
   * @param change - sets the entry's contents, keeping `recordBytes` and `eventBytes` true
   */
  write(runId: string, change: (entry: MemoryRunEntry) => void): void {
    const now = this.options.now();
    const entry = this.get(runId) ?? {
      record: undefined,
      recordBytes: 0,
      owner: undefined,
      inFlight: false,
      events: [],
      eventBytes: 0,
      progress: undefined,
      lastEventId: undefined,
      listeners: new Set<() => void>(),
      expiresAt: 0,
    };
    this.detach(runId, entry);
    change(entry);
    entry.expiresAt = now + this.options.ttlSeconds * 1000;
    this.entries.set(runId, entry);
    this.bytes += entry.recordBytes + entry.eventBytes;
    for (const [id, oldest] of this.entries) {
      const within = this.entries.size <= this.options.maxRuns && this.bytes <= this.options.maxBytes;
      if (id === runId || (oldest.expiresAt > now && within)) break;
      this.drop(id, oldest);
    }
    this.notify(entry);
  }

  /** Drop a run's entry (its followers end). */
  delete(runId: string): void {
    const entry = this.entries.get(runId);
    if (entry) this.drop(runId, entry);
  }

  private notify(entry: MemoryRunEntry): void {
    for (const listener of [...entry.listeners]) listener();
  }

  private detach(runId: string, entry: MemoryRunEntry): void {
    if (this.entries.delete(runId)) this.bytes -= entry.recordBytes + entry.eventBytes;
  }

  private drop(runId: string, entry: MemoryRunEntry): void {
    this.detach(runId, entry);
    this.notify(entry);
  }
}
