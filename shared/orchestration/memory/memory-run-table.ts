/**
 * The bounded in-memory table behind the in-memory run store and event log (direct mode without Redis,
 * docs/api.md#run-lifecycle): one entry per run id — record, owner, in-flight flag, events, progress — kept
 * `RUN_RECORD_TTL_SECONDS` after its last write, as Redis keeps its keys; at most `RUN_RECORDS_MAX_IN_MEMORY` entries
 * and `RUN_RECORDS_MAX_IN_MEMORY_MIB` of records and events (measured as their JSON text): a write beyond either drops
 * the least recently written runs. An lru-cache holds the entries, ordered by their last write (a read never moves
 * one), so the expired are always the first evicted; an expired entry is dropped when it is next read or evicted,
 * nothing runs on a timer.
 */

import { LRUCache } from 'lru-cache';
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

function notify(entry: MemoryRunEntry): void {
  for (const listener of [...entry.listeners]) listener();
}

/** The table of runs held in this process. */
export class MemoryRunTable {
  private readonly runs: LRUCache<string, MemoryRunEntry>;

  /** @param options - TTL, bounds and clock */
  constructor(private readonly options: MemoryRunTableOptions) {
    const { maxBytes } = options;
    this.runs = new LRUCache<string, MemoryRunEntry>({
      max: options.maxRuns,
      maxSize: maxBytes,
      // lru-cache sizes are positive; an entry larger than the whole budget counts as all of it, so that writing it
      // drops every other run but keeps this one
      sizeCalculation: (entry) => Math.min(maxBytes, Math.max(1, entry.recordBytes + entry.eventBytes)),
      // lru-cache expires an entry once its age exceeds `ttl`; a run expires when its age reaches the TTL (integer ms)
      ttl: options.ttlSeconds * 1000 - 1,
      ttlResolution: 0,
      perf: { now: options.now },
      // replacing an entry by its next version is no drop
      dispose: (entry, _runId, reason) => {
        if (reason !== 'set') notify(entry);
      },
    });
  }

  /** The clock of the table, epoch ms. */
  now(): number {
    return this.options.now();
  }

  /**
   * A live entry.
   * @returns the entry, or undefined when the run is unknown or expired (an expired one is dropped)
   */
  get(runId: string): MemoryRunEntry | undefined {
    const entry = this.runs.peek(runId);
    if (entry === undefined) this.runs.delete(runId);
    return entry;
  }

  /**
   * Change a run's entry, created when absent: it moves to the back, its lifetime starts again, its size is counted
   * anew, the runs beyond the bounds are dropped from the front (never the one written), and its listeners are told.
   * @param runId - the `pipeline_run_id`
   * @param change - sets the entry's contents, keeping `recordBytes` and `eventBytes` true
   */
  write(runId: string, change: (entry: MemoryRunEntry) => void): void {
    // a new object each time: lru-cache sizes an entry again only when its value changes
    const entry: MemoryRunEntry = {
      ...(this.get(runId) ?? {
        record: undefined,
        recordBytes: 0,
        owner: undefined,
        inFlight: false,
        events: [],
        eventBytes: 0,
        progress: undefined,
        lastEventId: undefined,
        listeners: new Set<() => void>(),
      }),
    };
    change(entry);
    this.runs.set(runId, entry);
    notify(entry);
  }

  /** Drop a run's entry (its followers end). */
  delete(runId: string): void {
    this.runs.delete(runId);
  }
}
