/**
 * The in-memory run event log (direct mode without Redis): the run event log port over a {@link MemoryRunTable}, with
 * the semantics of the Redis Streams log — ids `<ms>-<seq>` increasing within a run, at most `RUN_EVENTS_MAX_PER_RUN`
 * events kept per run (oldest dropped), kept as long as the run's record. A waiting follower is woken by each append
 * (and by the run's entry being dropped, which ends it).
 *
 * The kept events are the last `RUN_EVENTS_MAX_PER_RUN` of the entry's array; the dropped ones before them leave it
 * in one cut once they are a quarter of the bound, so an append costs the same however long the run (a cut per append
 * made a 20,000-step run's appends quadratic), and their size leaves the table's count the moment they are dropped.
 */
import type { RunEvent, RunProgress } from '../events/run-event.js';
import {
  compareEventIds,
  type FollowOptions,
  isSubmission,
  type LoggedRunEvent,
  type RunEventBatch,
  type RunEventLog,
  type SubmissionOf,
} from '../events/run-event-log.js';
import type { MemoryLoggedEvent, MemoryRunEntry, MemoryRunTable } from './memory-run-table.js';

function nextId(last: string | undefined, now: number): string {
  if (last === undefined) return `${now}-0`;
  const [ms = 0, seq = 0] = last.split('-').map(Number);
  return now > ms ? `${now}-0` : `${ms}-${seq + 1}`;
}

/**
 * Append events to a run's entry (inside a {@link MemoryRunTable.write}), keeping at most `max` of them, and store the
 * progress when given: the log's append, and the events a run's end writes with its record.
 * @param entry - the run's entry being written
 * @param batch - the events, oldest first, and the progress after them
 * @param now - the clock, epoch ms, for the events' ids
 * @param max - most events kept per run (`RUN_EVENTS_MAX_PER_RUN`)
 */
export function appendToEntry(entry: MemoryRunEntry, batch: RunEventBatch, now: number, max: number): void {
  for (const event of batch.events) {
    const id = nextId(entry.lastEventId, now);
    const bytes = JSON.stringify(event).length;
    entry.lastEventId = id;
    entry.events.push({ id, event, bytes });
    entry.eventBytes += bytes;
    const leaving = entry.events[entry.events.length - 1 - max];
    if (leaving) entry.eventBytes -= leaving.bytes;
  }
  if (entry.events.length > max + Math.ceil(max / 4)) entry.events.splice(0, entry.events.length - max);
  if (batch.progress) entry.progress = batch.progress;
}

/** Runs' events of this process. */
export class MemoryRunEventLog implements RunEventLog {
  /**
   * @param table - the table shared with the in-memory run store
   * @param maxEventsPerRun - most events kept per run (`RUN_EVENTS_MAX_PER_RUN`)
   */
  constructor(
    private readonly table: MemoryRunTable,
    private readonly maxEventsPerRun: number,
  ) {}

  async append(runId: string, events: readonly RunEvent[], progress?: RunProgress, of?: SubmissionOf): Promise<void> {
    const held = this.table.get(runId)?.record;
    if (of && held && !isSubmission(held, of)) return;
    const now = this.table.now();
    this.table.write(runId, (entry) =>
      appendToEntry(entry, { events, ...(progress ? { progress } : {}) }, now, this.maxEventsPerRun),
    );
  }

  /**
   * The kept events after a cursor, found by bisection (ids increase along the array).
   * @param events - a run's events, the kept ones last
   * @param cursor - an event id, `0-0` for all
   */
  private keptAfter(events: readonly MemoryLoggedEvent[], cursor: string): MemoryLoggedEvent[] {
    let low = Math.max(0, events.length - this.maxEventsPerRun);
    let high = events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareEventIds((events[middle] as MemoryLoggedEvent).id, cursor) > 0) high = middle;
      else low = middle + 1;
    }
    return events.slice(low);
  }

  async progress(runId: string): Promise<RunProgress | undefined> {
    return this.table.get(runId)?.progress;
  }

  async *follow(runId: string, options: FollowOptions): AsyncGenerator<LoggedRunEvent, void> {
    const { signal } = options;
    let cursor = options.after ?? '0-0';
    while (!signal.aborted) {
      const entry = this.table.get(runId);
      if (!entry) return;
      const pending = this.keptAfter(entry.events, cursor);
      if (pending.length === 0) {
        if (!options.wait) return;
        await new Promise<void>((resolve) => {
          const wake = () => {
            entry.listeners.delete(wake);
            signal.removeEventListener('abort', wake);
            resolve();
          };
          entry.listeners.add(wake);
          signal.addEventListener('abort', wake, { once: true });
        });
        continue;
      }
      for (const { id, event } of pending) {
        const logged = { id, event };
        yield logged;
        if (logged.event.type === 'run:finished') return;
        cursor = logged.id;
      }
    }
  }
}
