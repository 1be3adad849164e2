/**
 * Public surface of `shared/orchestration/memory`: run records and run events held in this process, for a deployment
 * without Redis (direct mode), behind the same ports as the Redis registry and event log.
 */
import type { RunEventLog } from '../events/run-event-log.js';
import type { HistoryOutbox, RunStore } from '../registry/run-store.js';
import { MemoryRunEventLog } from './memory-run-event-log.js';
import { MemoryRunStore } from './memory-run-store.js';
import { MemoryRunTable } from './memory-run-table.js';

/** Bounds and clock of the in-memory runs. */
export interface MemoryRunsOptions {
  /** Lifetime of a run after its last update, in seconds (`RUN_RECORD_TTL_SECONDS`). */
  ttlSeconds: number;
  /** Most runs kept (`RUN_RECORDS_MAX_IN_MEMORY`); beyond it the least recently updated run is dropped. */
  maxRuns: number;
  /** Most bytes of records and events kept, as JSON text (`RUN_RECORDS_MAX_IN_MEMORY_MIB`), likewise. */
  maxBytes: number;
  /** Most events kept per run (`RUN_EVENTS_MAX_PER_RUN`). */
  maxEventsPerRun: number;
  /** Clock, epoch ms. */
  now(): number;
}

/**
 * Open the run store (with its history outbox) and event log of this process, sharing one bounded table.
 * @param options - TTL, bounds and clock
 */
export function memoryRuns(options: MemoryRunsOptions): { store: RunStore & HistoryOutbox; events: RunEventLog } {
  const table = new MemoryRunTable(options);
  return {
    store: new MemoryRunStore(table, options.maxEventsPerRun),
    events: new MemoryRunEventLog(table, options.maxEventsPerRun),
  };
}
