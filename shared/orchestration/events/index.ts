/**
 * Public surface of `shared/orchestration/events`: the live progress of runs (docs/run-events.md) — the event types,
 * the run event log port and its Redis Streams implementation, and the tracker that turns a run's pipe reports into
 * events.
 */

export { RedisRunEventLog, type RedisRunEventLogOptions } from './redis-run-event-log.js';
export type {
  CurrentPipe,
  PipeFailedEvent,
  PipeFinishedEvent,
  PipeStartedEvent,
  RunError,
  RunEvent,
  RunFinishedEvent,
  RunProgress,
  RunStartedEvent,
} from './run-event.js';
export { runError, runFinishedEvent } from './run-event.js';
export {
  type FollowOptions,
  type LoggedRunEvent,
  RUN_EVENT_ID,
  type RunEventBatch,
  type RunEventLog,
  type SubmissionOf,
} from './run-event-log.js';
export { RUN_EVENT_LINGER_MS, RunProgressTracker, type RunProgressTrackerDeps } from './run-progress-tracker.js';
