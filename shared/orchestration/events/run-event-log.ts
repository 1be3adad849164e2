/**
 * The run event log port (docs/run-events.md): each run's events in order, each with an id, plus the run's latest
 * progress. Two implementations behind it: Redis Streams (queue mode, and any deployment with a queue backend: events
 * cross processes) and a bounded in-memory table (direct mode without Redis). Both keep a run's events as long as its
 * record (`RUN_RECORD_TTL_SECONDS` after the last update) and at most `RUN_EVENTS_MAX_PER_RUN` per run, oldest dropped.
 *
 * Event ids are those of Redis Streams, `<ms>-<seq>`, increasing within a run; `Last-Event-ID` resumes after one.
 */
import type { RunEvent, RunProgress } from './run-event.js';

/** The shape of an event id (`<ms>-<seq>`), as a client sends it back in `Last-Event-ID`. */
export const RUN_EVENT_ID = /^\d{1,15}-\d{1,15}$/;

/** An event with its id. */
export interface LoggedRunEvent {
  id: string;
  event: RunEvent;
}

/**
 * Events written with a run's end, in the same atomic step as its finished record (`RunStore.finishOnce`): a reader
 * that sees the run finished finds every one of them in its log (docs/run-events.md#where-events-are-kept).
 */
export interface RunEventBatch {
  /** The events, oldest first; the last is the terminal `run:finished`. */
  events: readonly RunEvent[];
  /** The run's progress after them. */
  progress?: RunProgress;
}

/** Which submission of a run id events are of: its record's `created_at` and `request_id`. */
export interface SubmissionOf {
  created_at: string;
  request_id: string;
}

/**
 * Whether a record is of a submission: the same `created_at` and `request_id` (a run id taken again is another
 * submission; docs/run-ownership.md).
 * @param record - a run record, or anything carrying those two fields
 * @param of - the submission
 */
export function isSubmission(record: SubmissionOf, of: SubmissionOf): boolean {
  return record.created_at === of.created_at && record.request_id === of.request_id;
}

/** How to follow a run's events. */
export interface FollowOptions {
  /** Resume after this event id (exclusive); null from the first event kept. */
  after: string | null;
  /** Wait for events to come (a run in flight); false ends once the events kept so far are read. */
  wait: boolean;
  /** Ends the following (the client went away, the stream was idle too long). */
  signal: AbortSignal;
}

/** Where runs' events are appended and read. */
export interface RunEventLog {
  /**
   * Append events to a run's log, in order and at once, and store its progress when given.
   * @param runId - the `pipeline_run_id`
   * @param events - the events, oldest first (at least one)
   * @param progress - the run's progress after the last of them
   * @param of - the submission the events are of, for events appended after the run's end freed its id: nothing is
   *   appended (nor stored) when the run's kept record is another submission's, the id taken again meanwhile
   * @throws QueueUnavailableError (503) when Redis is down
   */
  append(runId: string, events: readonly RunEvent[], progress?: RunProgress, of?: SubmissionOf): Promise<void>;
  /**
   * The latest progress stored for a run.
   * @returns the progress, or undefined when none was stored (no pipe has run yet) or the run is unknown
   * @throws QueueUnavailableError (503) when Redis is down
   */
  progress(runId: string): Promise<RunProgress | undefined>;
  /**
   * The run's events after `options.after`, in order. Ends after yielding the terminal `run:finished`, when the signal
   * aborts, or (without `wait`) once the events kept so far are read.
   * @param runId - the `pipeline_run_id`
   * @param options - where to resume, whether to wait, and the signal that ends it
   * @throws QueueUnavailableError (503) when Redis cannot be read
   */
  follow(runId: string, options: FollowOptions): AsyncGenerator<LoggedRunEvent, void>;
}

/**
 * Order two event ids.
 * @returns a negative number when `a` is before `b`, 0 when equal, positive when after
 */
export function compareEventIds(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split('-').map(Number);
  const [bMs = 0, bSeq = 0] = b.split('-').map(Number);
  return aMs - bMs || aSeq - bSeq;
}
