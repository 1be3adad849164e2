/**
 * Public surface of `control/`: stopping runs before their end (docs/cancellation.md) — a cancel by the run's owner, a
 * deadline — the holds of the runs in flight in a process, and the broadcast of a stop to every process.
 */

export { RunControls, type RunHold } from './run-controls.js';
export { armDeadline, runDeadline } from './run-deadline.js';
export { type RunRef, type RunStopState, stopStateOf } from './run-stop.js';
export {
  RunStopper,
  type RunStopperDeps,
  runRefOf,
  type StopOutcome,
  type StoppableJobs,
  type StopRequest,
} from './run-stopper.js';
export { localStopBroadcast, type StopBroadcast } from './stop-broadcast.js';
